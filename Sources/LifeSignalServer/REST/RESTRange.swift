/// The `Range: <from>-[<to>]` header of a read (PostgREST's row ranges). Anything not of that
/// form is ignored, as PostgREST ignores it.
///
/// Every bound is the client's, up to `Int.max`: the arithmetic is checked, and a bound past
/// what `Int` holds means "no bound" (no table has that many rows).
struct RESTRange: Sendable, Hashable {
    var from: Int
    var to: Int?

    /// The header's range; `nil` when it is not one; 416 when its bounds are reversed.
    static func parse(_ header: String) throws(RESTError) -> RESTRange? {
        let parts = header.utf8.split(separator: UInt8(ascii: "-"), maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits = { (part: Substring.UTF8View) in part.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }
        guard parts.count == 2, !parts[0].isEmpty, isDigits(parts[0]), isDigits(parts[1]),
            let from = Int(Substring(parts[0]))
        else { return nil }
        // A `to` too large for `Int` is still a valid header: it bounds nothing.
        let to = parts[1].isEmpty ? nil : Int(Substring(parts[1])) ?? Int.max
        if let to, to < from {
            throw RESTError(
                status: .rangeNotSatisfiable, code: .unsatisfiableRange, message: "Requested range not satisfiable",
                details: "The lower boundary must be lower than or equal to the upper boundary in the Range header.")
        }
        return RESTRange(from: from, to: to)
    }

    /// The range intersected with the query's `limit`/`offset`.
    func apply(to plan: inout ReadPlan) {
        let lower = max(plan.offset, from)
        let queryUpper = plan.limit.map { limit in
            let (end, overflow) = plan.offset.addingReportingOverflow(limit)
            return overflow ? Int.max : end - 1
        }
        let upper = [queryUpper, to].compactMap { $0 }.min()
        plan.offset = lower
        if let upper {
            let (count, overflow) = (upper - lower).addingReportingOverflow(1)
            plan.limit = overflow ? Int.max : max(0, count)
        }
    }
}
