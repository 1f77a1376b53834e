import Foundation
import Testing

/// What cells found: how many ran, and a line per cell whose answer broke the model.
struct MatrixResult: Sendable {
    var cells = 0
    var failures: [String] = []

    mutating func add(_ other: MatrixResult) {
        cells += other.cells
        failures += other.failures
    }

    /// One cell: `problem` is `nil` when it held.
    mutating func cell(_ label: String, _ problem: String?) {
        cells += 1
        if let problem { failures.append("\(label): \(problem)") }
    }

    /// Runs independent jobs at most `width` at a time (the server answers on two cores;
    /// more in flight only queues), gathering their results.
    static func concurrently(width: Int = 8, _ jobs: [@Sendable () async -> MatrixResult]) async -> MatrixResult {
        var total = MatrixResult()
        await withTaskGroup(of: MatrixResult.self) { group in
            var pending = jobs[...]
            for _ in 0..<min(width, pending.count) {
                if let job = pending.popFirst() { group.addTask { await job() } }
            }
            while let result = await group.next() {
                total.add(result)
                if let job = pending.popFirst() { group.addTask { await job() } }
            }
        }
        return total
    }

    /// A job whose thrown error (a request that could not be made) counts as a failure.
    static func guarded(_ label: String, _ body: @escaping @Sendable () async throws -> MatrixResult) -> @Sendable () async -> MatrixResult {
        {
            do { return try await body() } catch {
                var result = MatrixResult()
                result.cell(label, "could not run: \(error)")
                return result
            }
        }
    }

    /// Reports every failure as its own issue, so a CI log names each broken cell.
    func report(_ phase: String) {
        for failure in failures { Issue.record(Comment(rawValue: "[\(phase)] \(failure)")) }
    }
}

/// The refusal a caller of this kind gets from PostgREST for a verb it has no grant for, or a
/// row-level-security violation: 401 without a user, 403 with one.
func isRefusal(_ status: Int) -> Bool { status == 401 || status == 403 }
