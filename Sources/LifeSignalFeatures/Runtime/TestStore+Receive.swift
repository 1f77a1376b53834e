import ConcurrencyExtras
import IssueReporting

extension TestStore {
    /// Asserts that an effect sent `expectedAction` back, waiting for it up to `timeout`, and
    /// asserts the state it left.
    ///
    /// In an exhaustive test it must be the next action received; with
    /// ``Exhaustivity/off`` earlier actions are skipped until one matches.
    public func receive(
        _ expectedAction: Action,
        timeout: Duration? = nil,
        assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await receiveAction(
            matching: { $0 == expectedAction },
            expected: expectedAction,
            description: Self.describe(expectedAction),
            timeout: timeout,
            updateStateToExpectedResult,
            SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// Asserts that an effect sent back an action for which `isMatching` is true: for actions
    /// whose payload the test cannot predict exactly (a generated token, a timestamp).
    public func receive(
        matching isMatching: @escaping (Action) -> Bool,
        timeout: Duration? = nil,
        assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await receiveAction(
            matching: isMatching,
            expected: nil,
            description: "an action matching the predicate",
            timeout: timeout,
            updateStateToExpectedResult,
            SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    private func receiveAction(
        matching isMatching: (Action) -> Bool,
        expected: Action?,
        description: String,
        timeout: Duration?,
        _ update: ((inout State) throws -> Void)?,
        _ location: SourceLocation
    ) async {
        let timeout = timeout ?? self.timeout
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while !hasCandidate(isMatching) {
            guard ContinuousClock.now < deadline else {
                let why =
                    runtime.inFlight.value.isEmpty
                    ? "No effect is running that could send it."
                    : "Effects are still running; if one waits on a test clock, advance it first."
                location.report("Expected to receive \(description) within \(timeout), but none arrived. \(why)")
                return
            }
            await Self.pause()
        }
        // Only the main actor changes `received`; the lock is for deinit's benefit.
        var pending = received.value
        let count = exhaustivity == .on ? 1 : (pending.firstIndex { isMatching($0.action) } ?? 0) + 1
        let (action, after) = pending[count - 1]
        pending.removeFirst(count)
        let remaining = pending
        received.setValue(remaining)
        if !isMatching(action) {
            location.report(Self.unexpectedActionMessage(expected: expected, description: description, actual: action))
        }
        expect(before: state, after: after, update, action: action, location)
        state = after
        await Task.megaYield()
    }

    /// Whether `receive` can proceed: any action when exhaustive (a wrong one is a failure to
    /// report at once), a matching one otherwise.
    private func hasCandidate(_ isMatching: (Action) -> Bool) -> Bool {
        let pending = received.value
        return exhaustivity == .on ? !pending.isEmpty : pending.contains { isMatching($0.action) }
    }
}
