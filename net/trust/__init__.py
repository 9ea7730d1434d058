"""Trust: identities and signatures, the host's hash chain, commitments, sealed rounds, the
fair shuffle, a client's vault of secrets, transcripts and `modernart audit`."""
