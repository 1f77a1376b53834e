#!/usr/bin/env python3
"""Decodes QR codes with zxing-cpp, an independent reader, for the QR encoder's tests (Tests/QRCodeTests).

  qr_decode.py IMAGE...

Each IMAGE is a picture file Pillow reads (the tests write binary PGMs). For each, in order,
one JSON line:

  {"file": IMAGE, "codes": [{"hex": "...", "version": 7, "ecLevel": "M", "mask": 3, "unusedErrorCorrection": 1.0}]}

`hex` is the decoded payload's bytes (not text, so the test compares bytes exactly);
`version`, `ecLevel` and `mask` are what zxing-cpp read from the symbol, and
`unusedErrorCorrection` the share of the error correction capacity it did not need (1.0: no
codeword was wrong, so every module is where the standard puts it); each is null when zxing-cpp
does not say. `codes` is empty when nothing decodes; an unreadable file gives {"file": ..., "error": ...}.
Only the QR Code format is looked for, so a misread as another symbology cannot pass. One
process decodes every image: starting Python and zxing-cpp costs more than a decode.
"""

from __future__ import annotations

import json
import sys

import numpy
import zxingcpp
from PIL import Image


def integer(value: object) -> int | None:
    try:
        return int(str(value))
    except ValueError:
        return None


def number(value: object) -> float | None:
    try:
        return float(str(value))
    except ValueError:
        return None


def decode(path: str) -> dict[str, object]:
    try:
        with Image.open(path) as image:
            pixels = numpy.asarray(image.convert("L"))
    except OSError as error:
        return {"file": path, "error": str(error)}
    codes = []
    for barcode in zxingcpp.read_barcodes(pixels, formats=zxingcpp.BarcodeFormat.QRCode, try_downscale=False):
        extra = barcode.extra if isinstance(barcode.extra, dict) else {}
        codes.append(
            {
                "hex": barcode.bytes.hex(),
                "version": integer(extra.get("Version")),
                "ecLevel": extra.get("ECLevel") or barcode.ec_level or None,
                "mask": integer(extra.get("DataMask")),
                "unusedErrorCorrection": number(extra.get("UEC")),
            }
        )
    return {"file": path, "codes": codes}


def main(paths: list[str]) -> int:
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    for path in paths:
        print(json.dumps(decode(path)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
