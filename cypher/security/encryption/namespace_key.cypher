// A namespace's key salt (encryption with a key per namespace), if it has one.
MATCH (k:NamespaceKey {ns: $ns})
RETURN k.salt AS salt
