"""Review before publication: court staff accept, reject and add the spans ``score`` suggests, in
a local web application whose state lives in SQLite, then export the anonymized rulings, the
decision log and the reviewed spans as a gold set."""
