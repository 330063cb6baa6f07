"""The Typer app of a group whose name alone shows what it keeps (``log``, ``encounter``,
``table``): without a subcommand its callback runs; its commands are
:class:`~rpgdice.cli.common.Command` (usage lines show ``ID``, not Typer's ``{ID}``)."""

from __future__ import annotations

from rpgdice.cli.common import Command, RulesetTyper


def showing_group(help: str) -> RulesetTyper:
    """The app of such a group, ``help`` its Markdown help."""
    return RulesetTyper(command_cls=Command, help=help, rich_markup_mode="markdown",
                        invoke_without_command=True, no_args_is_help=False)
