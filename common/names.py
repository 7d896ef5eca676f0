"""When two names are the same name: the key duplicate checks compare (a roster import,
a character created by hand), so that the same file re-saved by another program, or a
name typed on another keyboard, never makes a twin.

`name_key` folds, in order:
- NFKC: composed and decomposed accents (NFD from a Mac), fullwidth letters, ligatures
  and the no-break space read as their plain forms;
- format characters (Unicode category Cf: zero-width space and joiners, BOM, bidi marks)
  are removed;
- every run of whitespace is one space, none at either end;
- casefold (ß = ss, É = é);
- Cyrillic and Greek letters that look like Latin ones (CONFUSABLES) read as the Latin
  letter. Covered: the look-alikes of a-z in those two scripts, which keyboards and
  copy-paste produce; not covered: other scripts' look-alikes and digits for letters
  (`0` for `o`), which would merge names that are really different.
"""
from __future__ import annotations

import re
import unicodedata

# Cyrillic and Greek lower-case letters (after casefold) that are drawn like a Latin one.
CONFUSABLES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "і": "i", "ї": "i", "ј": "j", "к": "k",
    "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x",
    "ѕ": "s", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ϲ": "c",
})
_SPACES = re.compile(r"\s+")


def name_key(name: str) -> str:
    """The form two names share when a reader would take them for the same name."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    text = _SPACES.sub(" ", text).strip().casefold()
    # NFKC again: casefold can produce sequences that compose (e.g. "İ").
    return unicodedata.normalize("NFKC", text).translate(CONFUSABLES)
