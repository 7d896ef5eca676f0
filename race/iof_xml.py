"""IOF XML 3.0 (the orienteering federation's data standard, race/iof/README.md), read
safely: a file from the outside is never trusted to declare entities or reach the network.

Reading is done in three gates, each refusing the whole file with its reasons (line and
text, as CsvRejected, so an XML import answers like a CSV one):
1. defusedxml parses it first and refuses any DOCTYPE: IOF files have none, and a DOCTYPE
   is how an entity bomb ("billion laughs") or an external entity (a file of the server,
   a URL) gets in;
2. lxml parses it again without entities, DTD or network, and its root must be the
   message expected (EntryList, CourseData...);
3. it must validate against the federation's schema (race/iof/IOF.xsd).
What the elements mean is the importing service's business (race/services/iof_import.py).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from xml.etree.ElementTree import ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring as defused_fromstring
from lxml import etree

from common.csv_rows import CsvRejected

from .labels import say

NS = "http://www.orienteering.org/datastandard/3.0"
XSD = Path(__file__).resolve().parent / "iof" / "IOF.xsd"
MAX_SCHEMA_ERRORS = 50


def parser() -> etree.XMLParser:
    """lxml without anything a file could use to reach outside itself."""
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                           dtd_validation=False, huge_tree=False, remove_comments=True)


@lru_cache(maxsize=1)
def schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(XSD), parser()))


def tag(name: str) -> str:
    return f"{{{NS}}}{name}"


def _refused(line: int, key: str, **params) -> CsvRejected:
    return CsvRejected([{"line": line, "reason": say(key, **params)}])


def _defused(raw: bytes) -> None:
    try:
        defused_fromstring(raw, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException:         # DTDForbidden, EntitiesForbidden, external ones
        raise _refused(1, "xml_doctype") from None
    except ParseError as exc:
        line = exc.position[0] if getattr(exc, "position", None) else 1
        raise _refused(line, "xml_unreadable", problem=str(exc)[:120]) from None


def iof_document(raw: bytes, *, roots: tuple[str, ...]) -> etree._Element:
    """The root element of an IOF XML 3.0 file whose message is one of `roots`, or
    CsvRejected with every reason (line numbers as an editor shows them)."""
    if not raw.strip():
        raise _refused(1, "xml_empty", expected=" / ".join(roots))
    _defused(raw)
    try:
        root = etree.fromstring(raw, parser())
    except etree.XMLSyntaxError as exc:
        raise _refused(exc.lineno or 1, "xml_unreadable", problem=str(exc.msg)[:120]) from None
    name = etree.QName(root)
    if name.namespace != NS or name.localname not in roots:
        raise _refused(root.sourceline or 1, "xml_root", found=name.localname,
                       expected=" / ".join(roots))
    checker = schema()
    if not checker.validate(root):
        raise CsvRejected([{"line": error.line, "reason": say("xml_schema", problem=error.message[:200])}
                           for error in list(checker.error_log)[:MAX_SCHEMA_ERRORS]])
    return root


def text(element, path: str, default: str = "") -> str:
    """The stripped text at `path` ("Person/Name/Given", IOF names without namespace)."""
    found = element.find("/".join(tag(part) for part in path.split("/")))
    return (found.text or "").strip() if found is not None and found.text else default


def children(element, path: str) -> list:
    return element.findall("/".join(tag(part) for part in path.split("/")))
