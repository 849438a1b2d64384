"""What the running tray answers to a request (a second launch, the command line, scripts): the
requests as a table, each with the words it takes and what it does.

A request is a list of words (`request` says how it travels); the first is its name. The rows
are tried in order and the first whose name and arguments fit answers, with an exit code and
the text the asking process prints. Nothing here draws: the rows call the tray and its
controller, which do.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from sioul_tray import i18n
from sioul_tray.i18n import App
from sioul_tray.lease import PARTS
from sioul_tray.lease.codec import whole_number
from sioul_tray.tray import model

if TYPE_CHECKING:
    from sioul_tray.tray.controller import Controller

Answer = tuple[int, str]  # the exit code, and the text (each line ending in a newline)


class Visible(Protocol):
    """A Qt widget, as far as a request asks: shown or not."""

    def isVisible(self) -> bool: ...


class Tray(Protocol):
    """What a request asks of the running tray (`app.Tray`), beside its controller: its menu and
    its windows."""

    @property
    def menu(self) -> Visible: ...
    def texts(self) -> list[str]: ...
    @property
    def state(self) -> model.Icon: ...
    def popup(self) -> None: ...
    def about(self) -> object: ...
    def change_folder(self) -> None: ...
    def about_text(self) -> str: ...
    def computers(self) -> object: ...
    def close_windows(self) -> None: ...
    def listing(self) -> str: ...


@dataclass(frozen=True)
class Request:
    """One form of a request: its name, whether its arguments fit, and what it does."""

    name: str
    fits: Callable[[list[str]], bool]
    run: Callable[[Tray, Controller, list[str]], Answer]


def answer(tray: Tray, controller: Controller, argv: list[str]) -> Answer:
    """The answer to `argv` (none: "show"), carried out in the tray. An error is said to the
    asking process, as the command line would say it, and the tray goes on."""
    from sioul_tray.errors import SioulError

    name, args = (argv[0], argv[1:]) if argv else ("show", [])
    try:
        for request in REQUESTS:
            if request.name == name and request.fits(args):
                return request.run(tray, controller, args)
    except (SioulError, OSError) as e:
        # In the tray's language: the asking command line usually runs in the same session's.
        return 1, _said_error(i18n.error_text(e))
    text = App.tr("sioul-tray: the running tray cannot do {request}")
    return 2, text.format(request=repr(" ".join(argv))) + "\n"


def _said_error(error: str) -> str:
    return App.tr("sioul-tray: {error}").format(error=error) + "\n"


def _boot_time(word: str) -> float | None:
    """A boot-clock time as a request sends it (`tray.client.through_tray`), or None."""
    try:
        value = float(word)
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None


# -- the arguments each form takes --------------------------------------------------------------


def _any(_args: list[str]) -> bool:
    return True


def _none(args: list[str]) -> bool:
    return not args


def _just(*words: str) -> Callable[[list[str]], bool]:
    return lambda args: args == list(words)


def _parts(args: list[str]) -> bool:
    return all(a in PARTS for a in args)


def _mark(args: list[str]) -> bool:
    """PART MARK TOKEN [BY]: a mark of Sioul's records, made acting under TOKEN (integration)."""
    return (
        len(args) in (3, 4)
        and args[0] in PARTS
        and whole_number(args[1]) is not None
        and bool(args[2])
        and (len(args) == 3 or _boot_time(args[3]) is not None)
    )


# -- what each does ------------------------------------------------------------------------------


def _done(act: Callable[[Tray], object]) -> Callable[[Tray, Controller, list[str]], Answer]:
    """A request answered by doing `act` on the tray, with nothing to print."""

    def run(tray: Tray, _controller: Controller, _args: list[str]) -> Answer:
        act(tray)
        return 0, ""

    return run


def _wrote(_tray: Tray, controller: Controller, args: list[str]) -> Answer:
    by = _boot_time(args[3]) if len(args) == 4 else None
    refused = controller.mark(args[0], int(args[1]), args[2], by)
    return (0, "") if refused is None else (1, _said_error(refused))


def _confirm(_tray: Tray, controller: Controller, args: list[str]) -> Answer:
    """The person's word for a mark the core cannot prove (S6, `Driver.confirm`)."""
    refused = controller.confirm(args[0], int(args[1]))
    return (0, "") if refused is None else (1, _said_error(refused))


def _take(_tray: Tray, controller: Controller, _args: list[str]) -> Answer:
    controller.take("invoices")
    text = App.tr("Invoices are taken here; this computer starts once every other one has seen it.")
    return 0, text + "\n"


def _forget(_tray: Tray, controller: Controller, args: list[str]) -> Answer:
    controller.forget(args[0])
    return 0, App.tr("{computer} is declared gone for good.").format(computer=args[0]) + "\n"


def _close(_tray: Tray, controller: Controller, args: list[str]) -> Answer:
    """A close kept until `sioul-tray renew`, across restarts (closed.json); when that record
    cannot be written, the parts are closed all the same and the person is told for how long."""
    parts = args or list(PARTS)
    shown = ", ".join(parts)
    failed = controller.pause(parts)
    if failed is None:
        return 0, App.tr("Closed: {parts} (until `sioul-tray renew`)").format(parts=shown) + "\n"
    text = App.tr(
        "Closed: {parts}, but only until the tray quits: {path} cannot be written ({error})"
    )
    return 1, _record_failure(text, controller, shown, failed) + "\n"


def _renew(_tray: Tray, controller: Controller, args: list[str]) -> Answer:
    parts = args or list(PARTS)
    failed = controller.unpause(parts)
    if controller.asleep:
        controller.resume()
    view = controller.view
    lines = [model.part_line(view, p) for p in parts] if view is not None else []
    if failed is not None:
        text = App.tr(
            "{path} cannot be written ({error}): where it still lists {parts} as closed, "
            "the tray closes them again when it starts"
        )
        lines.append(_record_failure(text, controller, ", ".join(parts), failed))
    return (0 if failed is None else 1), "".join(line + "\n" for line in lines)


def _record_failure(text: str, controller: Controller, parts: str, failed: OSError) -> str:
    path = controller.driver.paused_path
    return text.format(parts=parts, path=path, error=failed.strerror or failed)


def _menu(tray: Tray, _controller: Controller, _args: list[str]) -> Answer:
    shown = {"visible": tray.menu.isVisible(), "texts": tray.texts(), "icon": tray.state.value}
    return 0, json.dumps(shown) + "\n"


def _look(_tray: Tray, controller: Controller, _args: list[str]) -> Answer:
    content = controller.driver.status(controller.running and not controller.asleep)
    return 0, json.dumps(content) + "\n"


REQUESTS: tuple[Request, ...] = (
    Request("ping", _any, lambda _t, _c, _a: (0, "pong\n")),
    Request("show", _any, _done(lambda tray: tray.popup())),  # a second launch: the menu
    # The command line's writes, carried out by the tray while it runs (`request.THROUGH_TRAY`).
    Request("wrote", _mark, _wrote),
    Request(
        "confirm",
        lambda args: len(args) == 2 and args[0] in PARTS and whole_number(args[1]) is not None,
        _confirm,
    ),
    Request("take", _just("invoices"), _take),
    Request("forget", lambda args: len(args) == 1, _forget),
    Request("close", _parts, _close),
    Request("renew", _parts, _renew),
    # Windows, for scripts, the desktop tests and the memory benchmark.
    Request("open", _just("computers"), _done(lambda tray: tray.computers())),
    Request("open", _just("about"), _done(lambda tray: tray.about())),
    Request("open", _just("setup"), _done(lambda tray: tray.change_folder())),
    Request("close", _just("windows"), _done(lambda tray: tray.close_windows())),
    # What the windows in processes of their own show: the About box, and the Computers window
    # (which asks each second).
    Request("about", _none, lambda tray, _c, _a: (0, tray.about_text() + "\n")),
    Request("computers", _none, lambda tray, _c, _a: (0, tray.listing() + "\n")),
    # What the menu shows now and whether it is open; the status as `look --json` prints it.
    Request("menu", _any, _menu),
    Request("look", _any, _look),
)
