"""The client's catalogs are complete and current: every message the source marks is in the
template and translated in every language (no fuzzy or empty entry, the same {placeholders}),
and the committed .mo files say what their .po files say.

When this fails after a change to cli/, run the three pybabel commands in docs/client.md
("Languages") and translate what they added.
"""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from modernart.cli.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")

MessageKey = tuple[str | None, str]  # (context, msgid)


def _source_messages() -> dict[MessageKey, tuple[str, ...]]:
    """(context, msgid) -> every form (singular, plural) of each message marked in cli/."""
    found: dict[MessageKey, tuple[str, ...]] = {}
    method_map = [("cli/**.py", "python")]
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, keywords=DEFAULT_KEYWORDS, comment_tags=("TRANSLATORS:",)
    ):
        forms = message if isinstance(message, tuple) else (message,)
        if not forms[0]:
            continue
        found[(context, forms[0])] = tuple(forms)
    return found


SOURCE = _source_messages()


def _catalog(path: Path, locale: str | None = None) -> Catalog:
    with open(path, "rb") as f:
        return read_po(f, locale=locale)


def _placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def test_the_source_marks_messages() -> None:
    assert len(SOURCE) > 300  # the extraction config found the client


def test_template_is_current() -> None:
    template = _catalog(LOCALE_DIR / f"{DOMAIN}.pot")
    in_template = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in template if m.id}
    missing = sorted(map(str, set(SOURCE) - in_template))
    stale = sorted(map(str, in_template - set(SOURCE)))
    assert not missing and not stale, f"run pybabel extract: missing {missing[:20]}, stale {stale[:20]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated(lang: str) -> None:
    catalog = _catalog(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po", lang)
    problems: list[str] = []
    for (context, msgid), forms in sorted(SOURCE.items(), key=str):
        entry = catalog.get(msgid if len(forms) == 1 else forms, context=context)
        if entry is None:
            problems.append(f"missing: {context or ''}|{msgid!r}")
            continue
        if entry.fuzzy:
            problems.append(f"fuzzy: {msgid!r}")
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if not all(strings) or (len(forms) > 1 and len(strings) != catalog.num_plurals):
            problems.append(f"untranslated: {msgid!r}")
            continue
        wanted = set().union(*(_placeholders(f) for f in forms))
        for text in strings:
            if _placeholders(text) != wanted and not (len(forms) > 1 and _placeholders(text) <= wanted):
                problems.append(f"placeholders {sorted(_placeholders(text))} != {sorted(wanted)}: {msgid!r}")
    assert not problems, f"{lang}: {len(problems)} problems:\n" + "\n".join(problems[:40])


@pytest.mark.parametrize("lang", TRANSLATED)
def test_compiled_catalog_matches_its_source(lang: str) -> None:
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    catalog = _catalog(folder / f"{DOMAIN}.po", lang)
    with open(folder / f"{DOMAIN}.mo", "rb") as f:
        compiled = gettext.GNUTranslations(f)
    stale: list[str] = []
    for entry in catalog:
        if not entry.id or entry.fuzzy:
            continue
        prefix = f"{entry.context}\x04" if entry.context else ""
        if isinstance(entry.id, tuple):
            for n, text in enumerate(entry.string):
                got = compiled._catalog.get((prefix + entry.id[0], n))  # type: ignore[attr-defined]
                if got != text:
                    stale.append(f"{entry.id[0]!r}[{n}]")
        elif compiled._catalog.get(prefix + entry.id) != entry.string:  # type: ignore[attr-defined]
            stale.append(repr(entry.id))
    assert not stale, f"{lang}: run pybabel compile; the .mo differs from the .po for {stale[:20]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalog_header_names_its_language(lang: str) -> None:
    catalog = _catalog(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po", lang)
    assert str(catalog.locale).startswith(lang)
    assert catalog.plural_expr  # a plural rule for ngettext
