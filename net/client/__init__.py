"""The client side.  `Client` (`client`, the API the terminal UI drives) owns the DEALER
socket and is composed of parts: its state and updates (`updates`, `state`), requests and
their replies (`requests`), the frames it receives (`receiving`), and its
fair-play duties (`fair_duties`).  A bot seat played through the protocol is `bot`."""
