/// The key sequences ``EditLineReader`` binds besides libedit's own: the start of a bracketed
/// paste and the common forms of word motion, Home, End and Delete.
enum EditorKeyBindings {
    /// The start marker of a paste, as bound.
    static let pasteTrigger = "\\e[200~"

    /// Word motion, Home, End and Delete in the forms common terminals send (xterm, VTE,
    /// rxvt, tmux, the Linux console). Bound before `~/.editrc` is read, so a user's
    /// bindings win.
    static let extraBindings: [(String, String)] = [
        ("\\e[1;5D", "ed-prev-word"), ("\\e[1;5C", "em-next-word"),
        ("\\e[1;3D", "ed-prev-word"), ("\\e[1;3C", "em-next-word"),
        ("\\e[5D", "ed-prev-word"), ("\\e[5C", "em-next-word"),
        ("\\eOd", "ed-prev-word"), ("\\eOc", "em-next-word"),
        ("\\e\\e[D", "ed-prev-word"), ("\\e\\e[C", "em-next-word"),
        ("\\e[1;5H", "ed-move-to-beg"), ("\\e[1;5F", "ed-move-to-end"),
        ("\\e[H", "ed-move-to-beg"), ("\\e[F", "ed-move-to-end"),
        ("\\eOH", "ed-move-to-beg"), ("\\eOF", "ed-move-to-end"),
        ("\\e[1~", "ed-move-to-beg"), ("\\e[4~", "ed-move-to-end"),
        ("\\e[7~", "ed-move-to-beg"), ("\\e[8~", "ed-move-to-end"),
        ("\\e[3~", "ed-delete-next-char"), ("\\e[3;5~", "em-delete-next-word"),
    ]
}
