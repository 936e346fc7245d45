"""Taking a namespace's memory out of graphmem and putting it back (export, import)."""
