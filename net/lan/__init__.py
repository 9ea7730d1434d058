"""The local network: join strings (`address`), discovery by UDP beacon (`beacon`), this
machine's interfaces and addresses on every platform (`interfaces`), and the host keys met
before (`known_hosts`)."""
