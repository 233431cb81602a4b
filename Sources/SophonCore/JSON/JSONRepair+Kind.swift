extension JSONRepair.Kind {
    /// Whether the repair changed the JSON itself. Finding the value inside a fence or prose
    /// (``strippedFence``, ``skippedProse``) only locates it: the value's text is unchanged.
    public var changesValue: Bool {
        switch self {
        case .strippedFence, .skippedProse: false
        default: true
        }
    }
}
