"""Players that choose moves from an observation: random, medium and hard."""
