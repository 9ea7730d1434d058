"""The local network: join strings (`address`), discovery by UDP beacon (`beacon`), and the
host keys met before (`known_hosts`)."""
