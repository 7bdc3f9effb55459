"""kenning in IDA Pro: an IDAPython plug-in that remembers notes about the binary open in IDA,
anchored to where the analyst is, and shows what the knowledge base holds for each place.

Copy it (with the kenning wheel installed into IDA's Python) into IDA's plugins folder. In IDA,
Ctrl-Shift-K remembers a note about the function under the cursor, and every cursor move into
another function prints the memories the policy selects for it. Addresses are rebased with the
image: kenning stores offsets from the image base, so a note still finds its function after IDA
(or the debugger) moves the image.

The same script runs outside IDA on a recorded session (``replay.py``), which is how its test
drives it: only the few ``idaapi`` calls below are IDA's.
"""

import kenning

try:
    import idaapi
except ImportError:  # outside IDA: replay.py provides the module before importing this one
    raise

#: Who writes the notes: the analyst, by hand.
AUTHOR = "human"


class KenningPlugin(idaapi.plugin_t):
    """The plug-in: remembers notes, and shows the memories for the function under the cursor."""

    flags = idaapi.PLUGIN_KEEP
    comment = "Governed long-term memory for this binary"
    help = "Ctrl-Shift-K remembers a note about the function under the cursor"
    wanted_name = "kenning"
    wanted_hotkey = "Ctrl-Shift-K"

    def init(self):
        self.kb = kenning.open(idaapi.kenning_data_dir())
        # The knowledge base of this binary: keyed by the input file's contents.
        self.subject = "file:" + idaapi.get_input_file_path()
        self.last_function = None
        idaapi.on_cursor_moved(self.cursor_moved)
        return idaapi.PLUGIN_KEEP

    def run(self, arg):
        """The hotkey: a note about the function under the cursor (or the address)."""
        text = idaapi.ask_text("Note about this place")
        if not text:
            return
        ea = idaapi.get_screen_ea()
        function = idaapi.get_func(ea)
        if function is not None:
            anchor = kenning.function(idaapi.get_func_name(ea), function.start_ea, function.end_ea)
        else:
            anchor = kenning.address(ea)
        try:
            written = self.kb.remember(
                self.subject, text, anchors=[anchor], image_base=idaapi.get_imagebase(), author=AUTHOR
            )
        except kenning.Blocked as blocked:
            idaapi.msg(f"kenning: not kept: {blocked.message}\n")
            return
        idaapi.msg(f"kenning: note {written['id']} {written['status']}\n")

    def cursor_moved(self, ea):
        """A move into another function shows what the knowledge base holds for it."""
        function = idaapi.get_func(ea)
        key = function.start_ea if function is not None else None
        if key == self.last_function:
            return
        self.last_function = key
        place = {"cursor": ea, "image_base": idaapi.get_imagebase()}
        if function is not None:
            place["function"] = {
                "name": idaapi.get_func_name(ea),
                "start": function.start_ea,
                "end": function.end_ea,
            }
        snapshot = self.kb.context(self.subject, **place)["snapshot"]
        if snapshot:
            idaapi.msg(snapshot + "\n")

    def term(self):
        self.kb = None


def PLUGIN_ENTRY():
    """IDA's entry point."""
    return KenningPlugin()
