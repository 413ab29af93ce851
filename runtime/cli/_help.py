"""Help text as people write it: `--json`, not `--json <bool>`; `QUESTION`, not `{question}`.

typer 0.2x marks every option with its type (`<bool>` even on a flag, which takes no
value) and every required argument with braces. Two of its display methods are wrapped
here, once, when the command is built; on a typer without them nothing changes.
"""

from __future__ import annotations

from typing import Any

import typer.core

_DONE: list[bool] = []


def plain_help() -> None:
    """No type tag on a flag, no braces around a required argument in the usage line."""
    if _DONE:
        return
    _DONE.append(True)
    option = getattr(typer.core, "TyperOption", None)
    display = getattr(option, "display_type_rich", None)
    if option is not None and display is not None:

        def flag_without_type(self: Any, ctx: Any) -> Any:
            return None if getattr(self, "is_flag", False) else display(self, ctx)

        option.display_type_rich = flag_without_type
    argument = getattr(typer.core, "TyperArgument", None)
    if argument is not None and hasattr(argument, "_usage_display_name"):

        def usage_name(self: Any) -> str:
            name = str(self.display_name_raw).upper()
            name = name if self.required else f"[{name}]"
            return name + ("..." if self.nargs != 1 else "")

        argument._usage_display_name = usage_name
