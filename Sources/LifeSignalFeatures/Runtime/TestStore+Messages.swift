import CustomDump
import IssueReporting

/// Where a test store call was made, so a failure points at the test line, not the runtime.
struct SourceLocation: Sendable {
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt

    func report(_ message: String) {
        reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// The text of test store failures, kept apart from the logic that detects them.
extension TestStore {
    nonisolated static func describe(_ value: some Any) -> String {
        String(customDumping: value)
    }

    nonisolated static func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { "    " + $0 }
            .joined(separator: "\n")
    }

    nonisolated static func stateMismatchMessage(expected: State, actual: State, asserted: Bool) -> String {
        let headline =
            asserted
            ? "A state change does not match expectation:"
            : "State was not expected to change, but a change occurred:"
        let body =
            diff(expected, actual, format: .proportional).map {
                "\(indent($0))\n\n(Expected: \u{2212}, Actual: +)"
            } ?? "Expected:\n\(indent(describe(expected)))\nActual:\n\(indent(describe(actual)))"
        return "\(headline)\n\n\(body)"
    }

    nonisolated static func unexpectedActionMessage(expected: Action?, description: String, actual: Action) -> String {
        if let expected, let difference = diff(expected, actual, format: .proportional) {
            return """
                Received unexpected action:

                \(indent(difference))

                (Expected: \u{2212}, Received: +)
                """
        }
        return """
            Received unexpected action; expected \(description), received:

            \(indent(describe(actual)))
            """
    }

    nonisolated static func unreceivedMessage(_ actions: [Action], before action: Action? = nil) -> String {
        let list = actions.map { indent(describe($0)) }.joined(separator: "\n")
        let headline =
            action.map { "Must handle \(actions.count) received action(s) before sending \(describe($0)):" }
            ?? "The store received \(actions.count) unexpected action(s) that the test did not receive:"
        return "\(headline)\n\n\(list)\n\nAssert them with \"await store.receive(…)\"."
    }

    nonisolated static func stillRunningMessage(_ actions: [Action]) -> String {
        let list = actions.map { indent(describe($0)) }.joined(separator: "\n")
        return """
            \(actions.count) effect(s) are still running. They must finish (or be cancelled, e.g. \
            by sending the action that cancels them) before the test ends. Started by:

            \(list)
            """
    }
}
