"""Trust: identities and signatures, the host's hash chain, commitments, sealed rounds, the
fair shuffle, the checks every client repeats on the events (`verified_game`), a client's vault of
secrets, transcripts and `modernart audit`."""
