"""The tray application: the icon, its one flat menu, the windows, and the process's life.

`run()` is what `sioul-tray` with no subcommand starts.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import socket
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QSocketNotifier, QTimer, Signal
from PySide6.QtGui import QAction, QCursor
from PySide6.QtWidgets import QApplication, QMenu, QSystemTrayIcon, QWidget

from sioul_tray import __version__, i18n
from sioul_tray.i18n import App
from sioul_tray.tray import autostart, away, display, model
from sioul_tray.tray.childwindow import ChildWindow
from sioul_tray.tray.controller import Controller
from sioul_tray.tray.icons import icon
from sioul_tray.tray.model import Action, Icon, Item, Note, View

if TYPE_CHECKING:
    from pathlib import Path

    from PySide6.QtDBus import QDBusConnection

    from sioul_tray.desktop.notify import Notifier
    from sioul_tray.install import Installation
    from sioul_tray.tray.standin import StandIn

APP = "sioul-tray"
DOCS = "https://github.com/sioul/sioul-tray/tree/main/docs"  # the docs/ folder of this project
STANDIN_AFTER = 5  # tries, two seconds apart after the first: no tray this long, the window shows


def fill_menu(menu: QMenu, items: list[Item], run: Callable[[Item], None]) -> list[QAction]:
    """Fill `menu` with the model's `items`, each command calling `run` (the tray's menu; the tests
    take its pictures through this too); one action per item, separators included."""
    menu.clear()
    actions = []
    for item in items:
        if item.separator:
            act = menu.addSeparator()
        else:
            act = menu.addAction(item.text)
            act.setEnabled(item.enabled)
            act.setCheckable(item.checkable)
            act.setChecked(item.checked)
            if item.action is not None:
                act.triggered.connect(lambda _c=False, i=item: run(i))
        actions.append(act)
    return actions


COUNTDOWN_MS = 10_000
# How a note reaches the person: (key, title, body, buttons as (action key, label)) -> the way
# it went ("dbus", "fallback").
Notify = Callable[[str, str, str, Sequence[tuple[str, str]]], str]


class Tray(QObject):
    """Renders the controller's View into the icon, its tooltip and its menu."""

    def __init__(
        self,
        controller: Controller,
        notify: Notify | None = None,
        on_folder: Callable[[], bool] | None = None,
        parent: QObject | None = None,
        more_about: Callable[[], list[str]] | None = None,
        setup_here: Callable[[], bool] | None = None,
    ) -> None:
        super().__init__(parent)
        self.controller = controller
        # "Change sharing folder…": when its window ends, `on_folder` follows the folder saved:
        # it starts again there (and does not return), or returns False when the folder saved
        # is this tray's, or raises SioulError, the folder saved put back, when the new one
        # cannot be used. `setup_here` shows the window in this process where it cannot run in
        # its own (True: one chosen).
        self.on_folder = on_folder
        self.setup_here = setup_here
        self.more_about = more_about  # About's lines on this run (asked when About opens)
        self.menu = QMenu()
        self.state = Icon.NOTHING
        self.icon = self._made_icon(APP)
        # Qt chooses its way to the tray (StatusNotifierItem or XEmbed) when an icon is made:
        # one made while no tray existed never appears, so a new one is made when one does.
        self._stale_icon = False
        self.standin: StandIn | None = None  # the window shown while no tray exists
        self.tray_available: Callable[[], bool] = QSystemTrayIcon.isSystemTrayAvailable
        self._watch_tray = QTimer(self)
        self._watch_tray.setInterval(2000)
        self._watch_tray.timeout.connect(self.show)
        # While a part settles here, the menu counts down to when it acts ("here in 1 min 40 s"):
        # the view is shown again every COUNTDOWN_MS with its clock moved on, between ticks.
        self._countdown = QTimer(self)
        self._countdown.setInterval(COUNTDOWN_MS)
        self._countdown.timeout.connect(self._count_down)
        self._shown: tuple[View, float] | None = None
        self.items: list[Item] = []
        self.actions: list[QAction] = []
        self.notify: Notify = notify or self._balloon
        self._notifier: Notifier | None = None  # see `use_notifier`
        self._buttons: QSocketNotifier | None = None
        self.sent: list[Note] = []
        self.windows: list[QWidget] = []  # the windows open in this process
        # Set by `run`: the Computers window then runs in a process of its own (its memory is
        # never the tray's), which asks this tray for what to show (the `computers` request).
        self.state_dir: Path | None = None
        self.computers_child = ChildWindow("computers", self, instead=self.computers_window)
        self.about_child = ChildWindow("about", self, instead=self.about_box)
        # "Change sharing folder…"; a process that fails at once gives way to the window here.
        self.setup_child = ChildWindow("folder", self, instead=self._setup_instead)
        self._closing = False  # while `close_windows` closes the windows' processes
        self.raised = 0  # "Computers…" while its window is open: the window comes forward
        controller.changed.connect(self.render)
        controller.notify.connect(self._note)
        controller.woke.connect(self._reshow)
        self._show_tries = 0

    # -- showing -------------------------------------------------------------------------------

    def _made_icon(self, tip: str) -> QSystemTrayIcon:
        made = QSystemTrayIcon(self)
        made.setContextMenu(self.menu)
        made.setIcon(icon(self.state))
        made.setToolTip(tip)
        made.activated.connect(self._activated)
        return made

    def show(self) -> None:
        """Show the icon where a system tray exists. Where none does, after a few seconds (a tray
        host may start just after the session: QTBUG-61898), show the stand-in window, and keep
        looking: when a tray appears, the icon goes there and the window goes away."""
        if self.tray_available():
            self._watch_tray.stop()
            if self._stale_icon:
                self.renew_icon()
            self.icon.show()
            if self.standin is not None:
                self.standin.close()
                self.standin.deleteLater()
                self.standin = None
            return
        self._stale_icon = True
        self._show_tries += 1
        if self._show_tries >= STANDIN_AFTER and self.standin is None:
            self._show_standin()
        if not self._watch_tray.isActive():
            self._watch_tray.start()

    def renew_icon(self) -> None:
        """A new icon in place of the old one: when a tray appears, or its host restarts."""
        old = self.icon
        self.icon = self._made_icon(old.toolTip())
        old.hide()
        old.deleteLater()
        self._stale_icon = False

    def _show_standin(self) -> None:
        from sioul_tray.tray.standin import StandIn

        self.standin = StandIn(self.run)
        self.standin.show_items(self.items)
        self.standin.show()

    def _reshow(self) -> None:
        # Some tray hosts restart across a suspend and forget embedded icons (field notes).
        if self.icon.isVisible():
            self.icon.hide()
            self.icon.show()

    def render(self, view: View) -> None:
        """Show a new view (the controller's `changed`)."""
        self._shown = (view, time.monotonic())
        self._render(view)
        if model.settling(view):
            self._countdown.start()
        else:
            self._countdown.stop()

    def _count_down(self) -> None:
        if self._shown is not None:
            view, at = self._shown
            self._render(dataclasses.replace(view, now=view.now + time.monotonic() - at))

    def _render(self, view: View) -> None:
        items = model.menu(view, autostart.enabled())
        if [(i.text == "", i.action, i.data) for i in items] == [
            (i.text == "", i.action, i.data) for i in self.items
        ]:
            # Same commands: update texts in place, so an open menu stays open and current.
            for item, old, act in zip(items, self.items, self.actions, strict=True):
                if not item.separator and item != old:
                    act.setText(item.text)
                    act.setEnabled(item.enabled)
                # Always: a click ticks a check box before its command runs, and may fail.
                act.setChecked(item.checked)
        else:
            self.actions = fill_menu(self.menu, items, self.run)
        self.items = items
        if self.standin is not None:
            self.standin.show_items(items)
        tip, state = model.tooltip(view), model.icon(view)
        if tip != self.icon.toolTip():
            self.icon.setToolTip(tip)
        if state is not self.state:
            self.state = state
            self.icon.setIcon(icon(state))

    def texts(self) -> list[str]:
        return [a.text() for a in self.menu.actions() if not a.isSeparator()]

    def _activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason == QSystemTrayIcon.ActivationReason.Trigger:
            self.popup()

    def popup(self) -> None:
        """Open the menu at the pointer (a left click, or a second launch); without a tray,
        bring the stand-in window forward."""
        if self.standin is not None:
            self.standin.show()
            self.standin.raise_()
            self.standin.activateWindow()
            return
        self.menu.popup(QCursor.pos())

    def _note(self, note: Note) -> None:
        self.sent.append(note)
        self.notify(note.key, note.title, note.body, model.note_actions(note))
        if self._notifier is not None:  # a button pressed while this one was sent waits read
            QTimer.singleShot(0, self._take_pressed)

    def _balloon(
        self, _key: str, title: str, body: str, _actions: Sequence[tuple[str, str]] = ()
    ) -> str:
        self.icon.showMessage(title, body, QSystemTrayIcon.MessageIcon.Information, 10_000)
        return "fallback"

    def use_notifier(self, notifier: Notifier) -> None:
        """Notify through `notifier`, and carry out a notification's button when pressed (its
        action, as from the menu: "Make invoices here…" still asks first)."""
        self.notify = notifier
        fd = notifier.dbus.watch() if notifier.dbus is not None else None
        if fd is not None:
            self._notifier = notifier
            self._buttons = QSocketNotifier(fd, QSocketNotifier.Type.Read, self)
            self._buttons.activated.connect(self._take_pressed)

    def _take_pressed(self) -> None:
        if self._notifier is not None:
            self.pressed(self._notifier.pressed())

    def pressed(self, keys: Sequence[str]) -> None:
        """The buttons pressed on this tray's notifications, by action key."""
        for key in keys:
            self.run(Item("", Action(key)))

    # -- commands ------------------------------------------------------------------------------

    def run(self, item: Item) -> None:
        from sioul_tray.errors import SioulError

        try:
            self._run(item)
        except (SioulError, OSError) as e:
            text = i18n.error_text(e)
            what = item.text.rstrip("…").strip()
            if what:  # a command of the menu's: say which one failed
                text = App.tr("{command} did not work:\n\n{error}").format(command=what, error=text)
            self.warn(text)
            self._count_down()  # the menu as things are: "Start at login" unticked if it failed

    def _run(self, item: Item) -> None:
        view = self.controller.view
        if item.action is Action.TAKE_INVOICES:
            question = model.take_confirmation(view) if view is not None else None
            if question is None or self._confirm(App.tr("Make invoices here"), question):
                self.controller.take("invoices")
        elif item.action is Action.REOPEN:
            # The parts closed by `sioul-tray close`, renewed again, as `sioul-tray renew` does.
            failed = self.controller.unpause(sorted(self.controller.paused))
            if failed is not None:
                text = App.tr(
                    "{path} cannot be written ({error}): the parts reopen until the tray quits, "
                    "and are closed again when it starts"
                )
                self.warn(text.format(path=self.controller.driver.paused_path,
                                      error=failed.strerror or failed))  # fmt: skip
        elif item.action is Action.FORGET:
            self.confirm_forget(item.data)
        elif item.action is Action.COMPUTERS:
            self.computers()
        elif item.action is Action.OPEN_FOLDER:
            self.open_folder()
        elif item.action is Action.CHANGE_FOLDER:
            self.change_folder()
        elif item.action is Action.AUTOSTART:
            # A full disk, a path no entry can carry: `run` says so ("Start at login did not
            # work: ..."), and the box shows the truth again.
            autostart.set_enabled(not autostart.enabled())
            if view is not None:
                self.render(view)
        elif item.action is Action.ABOUT:
            self.about()
        elif item.action is Action.QUIT:
            asked = model.quit_question(view) if view is not None else None
            if asked is None:
                QApplication.quit()
            elif asked.offers_take:
                answer = self._ask_quit(asked.text)
                if answer == "take":
                    # Taken before the close that quitting writes: that close then names no
                    # other computer, and this one numbers first tomorrow.
                    self.controller.take("invoices")
                if answer is not None:
                    QApplication.quit()
            elif self._confirm(App.tr("Quit sioul-tray"), asked.text):
                QApplication.quit()

    def open_folder(self) -> None:
        """Open the sharing folder in the file manager; where none opens it, say where it is
        (the path can be copied from the box)."""
        # Imported here: the classes a click needs stay out of the tray's memory until then.
        from PySide6.QtCore import QUrl
        from PySide6.QtGui import QDesktopServices

        folder = self.controller.folder
        if QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder))):
            return
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QMessageBox

        box = QMessageBox(
            QMessageBox.Icon.Information,
            "sioul-tray",
            App.tr("No file manager opened the sharing folder. It is:\n\n{path}").format(
                path=folder
            ),
        )
        box.setObjectName("folder")
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.setModal(False)
        self.windows.append(box)
        box.destroyed.connect(lambda: self.windows.remove(box) if box in self.windows else None)
        box.show()

    def confirm_forget(self, computer: str) -> bool:
        """Ask, then declare `computer` gone for good (the menu's and the Computers window's)."""
        from sioul_tray.tray.listing import forget_question

        view = self.controller.view
        name = view.shown_name(computer) if view is not None else computer
        question = forget_question(
            name,
            self.controller.forget_counts_from(computer),
            on_close=self.controller.forget_stands_on_close(computer),
        )
        if not self._confirm(*question, risky=True):
            return False
        self.controller.forget(computer)
        return True

    def warn(self, text: str) -> None:
        """Say what went wrong, in a box the person closes."""
        from PySide6.QtWidgets import QMessageBox

        QMessageBox.warning(None, "sioul-tray", text)

    def _ask_quit(self, text: str) -> str | None:
        """The last tray's Quit question: "take" (make invoices here, then quit), "quit", or
        None (Cancel, the default: nothing changes)."""
        from PySide6.QtWidgets import QMessageBox

        box = QMessageBox(QMessageBox.Icon.Question, App.tr("Quit sioul-tray"), text)
        box.setObjectName("quit")
        take = box.addButton(App.tr("Make them here, then quit"), QMessageBox.ButtonRole.YesRole)
        leave = box.addButton(App.tr("Quit"), QMessageBox.ButtonRole.NoRole)
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(cancel)
        box.exec()
        clicked = box.clickedButton()
        return "take" if clicked is take else "quit" if clicked is leave else None

    def _confirm(self, title: str, text: str, risky: bool = False) -> bool:
        """Ask yes or no; for a `risky` step, No is the default (Return keeps things as they
        are)."""
        from PySide6.QtWidgets import QMessageBox

        no, yes = QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes
        answer = QMessageBox.question(None, title, text, yes | no, no if risky else yes)
        return answer == yes

    def about(self) -> QWidget | None:
        """Open the About box: in a process of its own where this tray answers requests
        (`ChildWindow`), else, or when that process cannot start, here."""
        if self.about_child.open(self.state_dir):
            return None
        return self.about_box()

    def change_folder(self) -> None:
        """ "Change sharing folder…": its window, in a process of its own where it can be. The
        parts stay kept here while it is open (this is the folder until another is chosen).
        All or nothing when it ends: the folder saved is the one the commands read (`look`), so
        the tray follows it (`on_folder`: it starts again there), or, where the new folder cannot
        be used, the saved one is put back and the tray stays, saying why; a cancel changes
        nothing."""
        if self.on_folder is None:
            return
        if not self.open_setup(self._folder_chosen):
            self._setup_instead()

    def _setup_instead(self) -> None:
        if self.setup_here is not None:
            self.setup_here()
        self._folder_chosen(True)

    def _folder_chosen(self, well: bool) -> None:
        """The folder window closed (`well`), or failed: the folder saved decides, whatever the
        window said (one that failed may have saved the folder first)."""
        if self.on_folder is None or self._closing:
            return  # closed by the tray (it quits): nothing to follow
        from sioul_tray.errors import SioulError

        try:
            moved = self.on_folder()
        except (SioulError, OSError) as e:
            why = i18n.error_text(e)
        else:
            if moved or well:
                return
            why = App.tr("its window ended with an error")
        self.warn(
            App.tr(
                "The sharing folder was not changed: {error}\n\nsioul-tray keeps using {folder}."
            ).format(error=why, folder=self.controller.folder)
        )

    def open_setup(self, done: Callable[[bool], None]) -> bool:
        """ "Change sharing folder…" in a process of its own (`sioul-tray folder`): `done`
        is told whether it ended well (a folder chosen or not) or failed. False when it cannot
        run that way (no state folder, or the program does not start): the caller shows the
        window here."""
        return self.setup_child.open(self.state_dir, done)

    def about_box(self) -> QWidget:
        """The About box in this process: not modal (the menu stays usable), freed when closed."""
        from PySide6.QtCore import Qt

        from sioul_tray.tray.aboutbox import box as about_box

        box = about_box(self.about_text())
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.setModal(False)
        box.destroyed.connect(lambda: self._forget_window(box))
        self.windows.append(box)
        box.show()
        return box

    def about_text(self) -> str:
        """Version, this computer, the folder, and the sources this run reads (idle, sleep, the
        sync tool), then where the docs are."""
        view = self.controller.view
        idle = view.idle_source if view is not None else "?"
        if view is not None and not view.idle_known:
            idle = App.tr("none works here: counting from the session start")
        text = App.tr(
            "sioul-tray {version}\n\n"
            "Keeps Sioul's medicines and invoices on one computer at a time.\n\n"
            "This computer: {name} (id {computer})\n"
            "Sharing folder: {folder}\n"
            "Idle time from: {idle}"
        ).format(
            version=__version__,
            name=view.name if view is not None and view.name else self.controller.computer,
            computer=self.controller.computer,
            folder=self.controller.folder,
            idle=idle,
        )
        if self.more_about is not None:
            text += "".join("\n" + line for line in self.more_about())
        return (
            text
            + "\n\n"
            + App.tr("How it works, and what each line means: {docs}").format(docs=DOCS)
        )

    def _forget_window(self, window: QWidget) -> None:
        self.windows = [w for w in self.windows if w is not window]

    def computers(self) -> QWidget | None:
        """Open the Computers window: in a process of its own where this tray answers requests
        (brought forward when already open), else (or when that process cannot start) here."""
        if self.computers_child.running():
            self.raised += 1  # the window sees it at its next question, within a second
            return None
        if self.computers_child.open(self.state_dir):
            return None
        return self.computers_window()

    def computers_window(self) -> QWidget:
        """The Computers window in this process, reading the controller directly."""
        from sioul_tray.tray.computers import ComputersWindow, ControllerSource

        window = ComputersWindow(ControllerSource(self.controller, forget=self.confirm_forget))
        window.destroyed.connect(lambda: self._forget_window(window))
        self.windows.append(window)
        window.show()
        return window

    def close_windows(self) -> None:
        """Close every window: this process's, and the windows' processes (the folder window
        closed unanswered: nothing changed)."""
        for window in list(self.windows):
            window.close()
        self._closing = True
        try:
            for child in (self.computers_child, self.about_child, self.setup_child):
                child.close()
        finally:
            self._closing = False

    def listing(self) -> str:
        """The Computers window's content, as JSON (the `computers` request)."""
        from sioul_tray.tray.listing import read

        return read(self.controller, self.raised).to_json()


# -- the process ---------------------------------------------------------------------------------


class Relay(QObject):
    """A signal another thread may emit: Qt queues it to this object's thread."""

    fired = Signal()


class Signals(QObject):
    """SIGTERM and SIGINT end the event loop cleanly (claims closed), without polling: the C
    handler writes to a socket that Qt watches."""

    def __init__(self, on_signal: Callable[[int], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.on_signal = on_signal
        self.read, self.write = socket.socketpair()
        self.read.setblocking(False)
        self.write.setblocking(False)
        signal.set_wakeup_fd(self.write.fileno(), warn_on_full_buffer=False)
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: None)  # Python-level no-op: the wakeup fd does the work
        self.notifier = QSocketNotifier(self.read.fileno(), QSocketNotifier.Type.Read, self)
        self.notifier.activated.connect(self._woken)

    def _woken(self, *_: Any) -> None:
        with contextlib.suppress(BlockingIOError):
            for byte in self.read.recv(64):
                self.on_signal(byte)


def _buses() -> tuple[QDBusConnection | None, QDBusConnection | None]:
    """The session and system D-Bus connections that work (Linux only; None elsewhere)."""
    if not sys.platform.startswith("linux"):
        return None, None
    from PySide6.QtDBus import QDBusConnection

    session, system = QDBusConnection.sessionBus(), QDBusConnection.systemBus()
    return (session if session.isConnected() else None,
            system if system.isConnected() else None)  # fmt: skip


def _not_started() -> None:
    """Said when the first-run window is closed without a folder: else the tray would only
    vanish, and nothing would remind or number here without a word."""
    from PySide6.QtWidgets import QMessageBox

    text = App.tr(
        "sioul-tray is not running: it needs a sharing folder. While it does not run, this "
        "computer reminds no medicines and numbers no invoices. Start sioul-tray again to "
        "choose the folder."
    )
    print(f"sioul-tray: {text}", file=sys.stderr)
    QMessageBox.information(None, "sioul-tray", text)


def follow_folder(inst: Installation, folder: Path, leave: Callable[[list[str]], None]) -> bool:
    """After "Change sharing folder…", all or nothing. The folder saved in the settings is the one
    the commands read (`look`): when it is no longer `folder`, the one this tray keeps, the tray
    moves there once the new folder opens with its key: `leave` ends this tray and starts the
    installed program in its place (in this language; the installation's SIOUL_TRAY_HOME is
    inherited). Where the new folder cannot be used, `folder` is saved again and SioulError says
    why: the tray stays. False when the folder saved is `folder` (nothing changed)."""
    from sioul_tray.errors import SioulError

    try:
        chosen = inst.share_folder()
        if chosen == folder:
            return False
        inst.open_share()  # the seal read, the key kept for it: what the new tray needs
    except (SioulError, OSError):
        inst.update_settings(share=str(folder))  # nothing half-changed: `look` reads this one
        raise
    leave([*autostart.command(), "--lang", i18n.language()])
    return True


def _setup(inst: Installation) -> str | None:
    from sioul_tray.tray import setup  # its widgets only when the window is needed

    return setup.ask(inst)


SNI_WATCHER = "org.kde.StatusNotifierWatcher"


def watch_tray_hosts(tray: Tray, session_bus: QDBusConnection | None) -> QObject | None:
    """Make the icon again when the StatusNotifierItem watcher gets a new owner (it started
    after the tray, or restarted): Qt does not register an existing icon again by itself."""
    if session_bus is None:
        return None
    from PySide6.QtDBus import QDBusServiceWatcher

    watcher = QDBusServiceWatcher(
        SNI_WATCHER, session_bus, QDBusServiceWatcher.WatchModeFlag.WatchForOwnerChange, tray
    )

    def owner_changed(_name: str, _old: str, new: str) -> None:
        if new:
            tray.renew_icon()
            tray.show()

    watcher.serviceOwnerChanged.connect(owner_changed)
    return watcher


def sync_line(inst: Installation, folder: Path) -> str:
    """What About says of the sync tool: which one syncs the folder, and what it is asked."""
    from sioul_tray.sync import which_tool

    nudger = inst.nudger
    if nudger is not None:
        problem = nudger.problem
        if problem is not None:
            return App.tr("Syncthing, asked to send each claim at once; the last request failed: "
                          "{problem}").format(problem=problem)  # fmt: skip
        return App.tr("Syncthing, asked to send each claim at once")
    found = which_tool(folder)
    if found is None:
        return App.tr("none found; the sync tool sends the claims when it notices them")
    return App.tr("{tool}, found; it sends the claims when it notices them").format(tool=found.tool)


def _cannot_start(e: BaseException) -> int:
    """Say why the tray does not start, in a window and on stderr; the exit code."""
    from PySide6.QtWidgets import QMessageBox

    QMessageBox.warning(None, "sioul-tray", i18n.error_text(e))
    print(App.tr("sioul-tray: {error}").format(error=i18n.error_text(e)), file=sys.stderr)
    return 1


def install_language(app: QApplication, language: str | None = None) -> str:
    """Show the tray in `language` (--lang), else SIOUL_TRAY_LANG, else the system's language as
    Qt reads it; Qt's own words (OK, Cancel) too. The language installed."""
    from PySide6.QtCore import QLocale

    i18n.install(i18n.pick_language(language, QLocale.system().uiLanguages()))
    i18n.install_qt(app)
    return i18n.language()


def run(argv: list[str] | None = None, language: str | None = None) -> int:
    """Start the tray: one per installation, claims closed on every way out."""
    from sioul_tray.desktop import idle, notify, sleep
    from sioul_tray.errors import Busy, Copied, SioulError
    from sioul_tray.install import Installation
    from sioul_tray.tray import answers, client, single

    if display.missing():
        return display.say_missing()
    inst = Installation()
    app = QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationName(APP)
    app.setDesktopFileName(autostart.APP_ID)  # Wayland finds the desktop entry by it
    app.setQuitOnLastWindowClosed(False)
    install_language(app, language)

    answer = client.ask(inst.state_dir, ["show"], timeout_ms=1000)
    if answer is not None:
        return 0  # the running tray opened its menu

    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(inst.writer())
        except Busy:
            # Another tray of this installation is starting or busy: let it open its menu.
            client.ask(inst.state_dir, ["show"], timeout_ms=5000)
            print(App.tr("sioul-tray: already running"), file=sys.stderr)
            return 0
        except SioulError as e:  # a link planted where the lock is, a state folder not ours
            return _cannot_start(e)
        try:
            inst.computer()
        except Copied as e:
            from sioul_tray.tray import copied

            if not copied.ask(inst, e):
                return 0
        except (SioulError, OSError) as e:
            return _cannot_start(e)
        try:
            if inst.share_folder() is None and _setup(inst) is None:
                _not_started()  # the person closed the first-run window
                return 0
            lease = inst.lease()
            folder = inst.share_folder()
        except (SioulError, OSError) as e:
            return _cannot_start(e)
        assert folder is not None
        session_bus, system_bus = _buses()
        active = idle.active_clock(session_bus, system_bus)
        controller = Controller(
            lease, inst.computer(), folder, active, inst.state_dir, away_after=away.away_after()
        )
        if inst.nudger is not None:
            # Syncthing syncs the folder: the menu says what it knows, asked from a thread.
            from sioul_tray.sync.report import Watch

            relay = Relay(controller)  # from the watch's thread to this one (a queued signal)
            relay.fired.connect(controller.reread)
            watch = Watch(inst.nudger.syncthing, changed=relay.fired.emit)
            controller.driver.sync_report = lambda: watch.report
            stack.callback(watch.close)
        dbus_notes = (
            notify.DBusNotifications(APP, autostart.APP_ID)
            if sys.platform.startswith("linux")
            else None
        )

        def leave(again: list[str]) -> None:
            # A new folder is a new Lease, watcher and state: start afresh in this process's place.
            controller.shutdown()
            server.close()
            stack.close()  # releases the writer lock for the new process
            os.execv(again[0], again)

        def folder_changed() -> bool:
            return follow_folder(inst, folder, leave)

        def more_about() -> list[str]:
            return [
                App.tr("Sleep and wake from: {source}").format(
                    source=sleep.describe(watching[0] if watching else None)
                ),
                App.tr("Sync tool: {tool}").format(tool=sync_line(inst, folder)),
            ]

        watching: list[object] = []  # the sleep watcher, once made: it knows the system's delay
        tray = Tray(
            controller,
            on_folder=folder_changed,
            more_about=more_about,
            setup_here=lambda: _setup(inst) is not None,
        )
        tray.state_dir = inst.state_dir  # the Computers window in a process of its own
        tray.use_notifier(notify.Notifier(dbus_notes, lambda t, b: tray._balloon("", t, b)))
        server = single.Server(inst.state_dir, lambda a: answers.answer(tray, controller, a))
        try:
            if not server.listen():
                return 0  # another tray of this installation won the race
        except OSError as e:  # the socket's folder is not this user's alone
            return _cannot_start(e)
        stack.callback(server.close)
        stack.callback(inst.send_pending, 1.0)  # after the claims closed (the stack unwinds)

        def before_sleep() -> None:
            controller.suspend()  # both claims closed on disk...
            if inst.nudger is not None:
                # ...and, where Syncthing syncs the folder, sent to every computer it is
                # connected to, within what the system leaves before it sleeps.
                delay = sleep.delay_of(watching[0] if watching else None)
                inst.nudger.sent_to_all(max(0.0, delay - 1.0))

        hosts = watch_tray_hosts(tray, session_bus)
        sleeper = sleep.watch(before_sleep, controller.resume, system_bus)
        watching.append(sleeper)
        signals = Signals(lambda _sig: app.quit())
        app.aboutToQuit.connect(controller.shutdown)
        app.aboutToQuit.connect(tray.close_windows)  # the Computers window's process too
        stack.callback(tray.close_windows)
        app.commitDataRequest.connect(lambda _m: controller.close_claims())  # session ending
        stack.callback(controller.shutdown)
        controller.start()
        tray.show()
        code = app.exec()
        del signals, sleeper, hosts
        return int(code)
    return 1
