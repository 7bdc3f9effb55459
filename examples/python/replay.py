"""Runs the IDAPython plug-in ``ida_kenning.py`` outside IDA, on a recorded session: a stand-in
for the few ``idaapi`` calls it makes, driven by the session's events.

    python replay.py session.json DATA_DIR

A session is JSON: the input file's path and image base, the functions of the database, and
events in order: ``{"cursor": EA}`` (the analyst moves), ``{"note": TEXT}`` (the hotkey, with
the note typed), ``{"rebase": NEW_BASE}`` (the image moves; every address moves with it).
"""

import json
import sys
import types


class _Function:
    def __init__(self, name, start_ea, end_ea):
        self.name, self.start_ea, self.end_ea = name, start_ea, end_ea


class Ida(types.ModuleType):
    """The ``idaapi`` module, as far as the plug-in uses it, over a recorded database."""

    PLUGIN_KEEP = 2

    class plugin_t:  # noqa: N801 (IDA's name)
        pass

    def __init__(self, session, data_dir):
        super().__init__("idaapi")
        self.session = session
        self.data_dir = data_dir
        self.base = session["image_base"]
        self.ea = self.base
        self.typed = None
        self.moved = None
        self.output = []

    # What IDA answers.
    def kenning_data_dir(self):
        return self.data_dir

    def get_input_file_path(self):
        return self.session["input_file"]

    def get_imagebase(self):
        return self.base

    def get_screen_ea(self):
        return self.ea

    def get_func(self, ea):
        for name, start, end in self.session["functions"]:
            if self.base + start <= ea < self.base + end:
                return _Function(name, self.base + start, self.base + end)
        return None

    def get_func_name(self, ea):
        function = self.get_func(ea)
        return function.name if function else ""

    def ask_text(self, prompt):
        return self.typed

    def msg(self, text):
        self.output.append(text)

    def on_cursor_moved(self, callback):
        self.moved = callback


def replay(session, data_dir):
    """Replays ``session`` against the plug-in; what it printed, in order."""
    ida = Ida(session, data_dir)
    sys.modules["idaapi"] = ida
    sys.modules.pop("ida_kenning", None)
    import ida_kenning

    plugin = ida_kenning.PLUGIN_ENTRY()
    plugin.init()
    for event in session["events"]:
        if "rebase" in event:
            ida.ea += event["rebase"] - ida.base
            ida.base = event["rebase"]
        elif "cursor" in event:
            ida.ea = ida.base + event["cursor"]
            ida.moved(ida.ea)
        elif "note" in event:
            ida.typed = event["note"]
            plugin.run(0)
    plugin.term()
    return ida.output


if __name__ == "__main__":
    with open(sys.argv[1]) as file:
        printed = replay(json.load(file), sys.argv[2])
    sys.stdout.write("".join(printed))
