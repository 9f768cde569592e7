"""Writes the fuzz targets' seed inputs into DIR/<target>/: every packet of
the protocol's example messages (the vectors the protocol tests use, those
of shared/ when it is beside the repository) and every XML block of the
protocol documents. Called by fuzz/run."""

import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
out = pathlib.Path(sys.argv[1])
sources = sorted(
    p
    for base in (root / "crates/protocol/tests/vectors", root.parent / "shared/protocol/vectors")
    if base.is_dir()
    for p in base.rglob("*")
    if p.suffix in (".xml", ".txt")
)
texts = [p.read_bytes() for p in sources]
for doc in sorted((root / "protocol").glob("*.md")):
    texts += [m.encode() for m in re.findall(r"```xml\n(.*?)```", doc.read_text(), re.S)]

# Streams that cannot become well-formed; the framing refuses each at the
# byte that shows it (issue 24 item 5).
texts += [
    b'<protocol><room roomId="r"><data class="sc.plugin2027.SetMove"><piece color=BLUE></room>',
    b'<protocol><join gameType="a"gameType="b"/>',
    b'<protocol><room roomId="r"><data class="x"></room></data>',
    b'<protocol><!-- a -- b --><close/>',
]

packets = set()
for text in texts:
    # Streams hold many packets: each one alone is a seed too.
    body = re.sub(rb"^\s*<protocol>|</protocol>\s*$", b"", text.strip())
    packets.add(text.strip())
    packets.update(m.group(0) for m in re.finditer(rb"<(\w[\w.]*)\b[^>]*?(/>|>.*?</\1>)", body, re.S))
data = {m.group(0) for p in packets for m in re.finditer(rb"<data\b.*?(/>|</data>)", p, re.S)}

def write(target, inputs):
    folder = out / target
    folder.mkdir(parents=True, exist_ok=True)
    for i, content in enumerate(sorted(inputs)):
        (folder / f"seed-{i:04}").write_bytes(content)

write("xml_reader", packets)
# The first byte of a framing input is the read size; 0 = one byte a time.
write("framing", {bytes([step]) + t.strip() for t in texts for step in (0, 7, 255)})
write("move_decoder", data)
