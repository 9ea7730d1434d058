"""The client's languages: gettext catalogs, and which one speaks to this person now.

Every string a player sees goes through `_()` (or `ngettext`/`pgettext`), looked up at
the moment it is drawn, in the catalog of *this* client's language.  One process can
serve several people in several languages at once (the SSH server runs a client per
guest in one event loop), so the language is a `ContextVar`: `use_language` sets it for
the current task and the tasks it starts; `set_language` sets the process's own default
(the language of `modernart play` on this terminal).  No `gettext.install()`, no
global `_` in builtins.

Catalogs live in cli/locale/LANG/LC_MESSAGES/modernart.po, compiled to .mo files that
are committed beside them (a test checks that they are up to date), so an install needs
no Babel; Babel extracts and compiles (`[tool.babel]` in pyproject.toml, commands in
docs/client.md).  English is the source language: its "catalog" is the source itself.

Nothing on the wire is a display string: the host sends codes and numbers, and each
client puts them into words here, in its own language.

>>> language_from_env({"LANG": "zh_CN.UTF-8"})
'zh'
>>> language_from_env({"LANGUAGE": "de:fa", "LANG": "C"})
'fa'
>>> language_from_env({"LC_ALL": "C.UTF-8"})
'en'
"""

from __future__ import annotations

import contextlib
import gettext
import os
from functools import lru_cache
from pathlib import Path
from typing import Mapping

from modernart.cli.context_setting import ContextSetting

#: The languages the client speaks, by their `--lang` names.
LANGUAGES: tuple[str, ...] = ("en", "zh", "fa")
#: Each language's name in that language, for the lobby and the help screen.
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "zh": "简体中文", "fa": "فارسی"}
#: Languages written right to left (their lines are reordered for terminals without BiDi).
RIGHT_TO_LEFT: frozenset[str] = frozenset({"fa"})

DOMAIN = "modernart"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

_language = ContextSetting("language", "modernart_language", LANGUAGES, "en")


def normalise_language(name: str) -> str | None:
    """The `LANGUAGES` entry a locale name means ('zh_CN.UTF-8' -> 'zh'), or None.

    'C' and 'POSIX' mean English; every Chinese locale gets the Simplified catalog (the only
    Chinese one), which readers of Traditional characters read more easily than English.
    """
    base = name.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    if base in ("c", "posix"):
        return "en"
    head = base.split("_")[0]
    return head if head in LANGUAGES else None


def language_from_env(env: Mapping[str, str]) -> str:
    """The language an environment asks for: LANGUAGE (a colon-separated list of
    preferences), then LC_ALL, LC_MESSAGES, LANG, as gettext reads them; English when none
    names a language the client speaks."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for name in env.get(variable, "").split(":"):
            if name.strip():
                found = normalise_language(name)
                if found is not None:
                    return found
    return "en"


def choose_language(asked: str | None, env: Mapping[str, str] | None = None) -> str:
    """`--lang` if given, else the environment's (`language_from_env`)."""
    if asked:
        found = normalise_language(asked)
        if found is None:
            raise ValueError(f"unknown language {asked!r}; choose from {', '.join(LANGUAGES)}")
        return found
    return language_from_env(os.environ if env is None else env)


def set_language(language: str) -> None:
    """This process's language (for every context that did not `use_language`)."""
    _language.set_process(language)


def use_language(language: str) -> None:
    """The language of the current context: this task and the tasks it starts from now on."""
    _language.use(language)


def speaking(lang: str | None) -> contextlib.AbstractContextManager[None]:
    """Within the block, this context speaks `lang` (None: as it did); restored after."""
    return _language.within(lang)


def language() -> str:
    """The language this context speaks."""
    return _language.get()


def is_right_to_left(lang: str | None = None) -> bool:
    return (lang or language()) in RIGHT_TO_LEFT


@lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog of `lang` (English: the identity)."""
    if lang == "en":
        return gettext.NullTranslations()
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo", "rb") as mo:
        return gettext.GNUTranslations(mo)


def _(message: str) -> str:
    """`message` in this context's language."""
    return translations(language()).gettext(message)


def N_(message: str) -> str:
    """Marks `message` for the catalog without translating it (a table's entries, translated
    with `_()` where they are drawn)."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count `n` ('1 card' / '3 cards')."""
    return translations(language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """A short message whose meaning depends on `context` ('Open' the auction type)."""
    return translations(language()).pgettext(context, message)
