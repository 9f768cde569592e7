"""Reads every room packet of the replays given with the organisers' Python
SDK's own parser (the one its client reads the server's packets with),
with and without Spielleiter's think-time attribute (`thinkMicros` on a
memento's `<data>`): each packet must read as a room message, and the
attribute must change nothing the SDK sees.

    replay_packets.py REPLAY...
"""

import re
import sys

from socha.api.networking.xml_protocol_interface import XMLProtocolInterface
from socha.api.protocol.protocol import Room


def parser():
    """The SDK's deserializer, without its connection."""
    interface = XMLProtocolInterface.__new__(XMLProtocolInterface)
    # The constructor builds the deserializer after connecting; build it
    # the same way without a socket.
    from xsdata.formats.dataclass.context import XmlContext
    from xsdata.formats.dataclass.parsers import XmlParser
    from xsdata.formats.dataclass.parsers.config import ParserConfig
    from xsdata.formats.dataclass.parsers.handlers import XmlEventHandler
    from socha.api.networking.xml_protocol_interface import custom_class_factory

    interface.deserializer = XmlParser(
        handler=XmlEventHandler,
        context=XmlContext(),
        config=ParserConfig(class_factory=custom_class_factory),
    )
    return interface


def main():
    sdk = parser()
    packets = timed = 0
    for path in sys.argv[1:]:
        text = open(path, "rb").read()
        for packet in re.findall(rb"^<room .*?^</room>", text, re.M | re.S):
            parsed = sdk._deserialize_object(packet)
            if not isinstance(parsed, Room):
                sys.exit(f"{path}: a packet reads as {type(parsed).__name__}, not a room")
            plain = re.sub(rb' thinkMicros="\d+"', b"", packet, count=1)
            if plain != packet:
                timed += 1
                if sdk._deserialize_object(plain) != parsed:
                    sys.exit(f"{path}: the think time changes what the SDK reads")
            packets += 1
    if timed == 0:
        sys.exit("no packet has a think time")
    print(f"python-sdk: the SDK reads all {packets} replay packets, {timed} with a think time, "
          "as without it")


if __name__ == "__main__":
    main()
