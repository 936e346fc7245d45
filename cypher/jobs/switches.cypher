// A namespace's pipeline switches, if it set any.
MATCH (p:PipelineSwitches {ns: $ns})
RETURN p {.*} AS switches
