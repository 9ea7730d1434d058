"""The client side: the DEALER client the terminal UI drives (`client`), its state, the
frames it receives, its fair-play duties, and a bot seat
played through the protocol (`bot`)."""
