/// Recording repairs: every repair is listed up to ``JSONByteParser/maxListedRepairs``; past
/// that, each kind is counted and listed once (its first occurrence, with the count), so a
/// pathological input (`[1 1 1 ...]`, a missing comma every two bytes) cannot make the list
/// many times larger than the text.
extension JSONByteParser {
    /// Repairs listed one by one per parse; later ones are summarized by kind.
    static var maxListedRepairs: Int { 1_000 }

    /// Records a repair of `kind` at `offset`; `what` is the sentence before ` at offset N`.
    mutating func repair(_ kind: JSONRepair.Kind, at offset: Int, _ what: String) {
        if repairs.count < Self.maxListedRepairs {
            repairs.append(.make(kind, at: offset, what))
        } else if let index = unlisted.firstIndex(where: { $0.kind == kind }) {
            unlisted[index].count += 1
        } else {
            unlisted.append(UnlistedRepairs(kind: kind, offset: offset, what: what, count: 1))
        }
    }

    /// Where the repairs stand, to undo the ones recorded after it with ``rollBack(to:)``.
    func repairMark() -> RepairMark { RepairMark(listed: repairs.count, unlisted: unlisted) }

    /// Forgets the repairs recorded since `mark`.
    mutating func rollBack(to mark: RepairMark) {
        repairs.removeLast(repairs.count - mark.listed)
        unlisted = mark.unlisted
    }

    /// Lists the counted repairs after the others, one per kind.
    mutating func summarizeRepairs() {
        for group in unlisted {
            let what =
                group.count == 1
                ? group.what
                : "\(group.what) and \(group.count - 1) more like it after it (past "
                    + "\(Self.maxListedRepairs) repairs, one line per kind)"
            repairs.append(.make(group.kind, at: group.offset, what))
        }
        unlisted = []
    }
}

/// Repairs of one kind made past ``JSONByteParser/maxListedRepairs``: the first one and how many.
struct UnlistedRepairs {
    let kind: JSONRepair.Kind
    let offset: Int
    let what: String
    var count: Int
}

/// A point in a parser's repairs (see ``JSONByteParser/repairMark()``).
struct RepairMark {
    let listed: Int
    let unlisted: [UnlistedRepairs]
}
