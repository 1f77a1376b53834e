import ConcurrencyExtras
import IssueReporting

/// The effects started by one ``TestStore/send(_:assert:fileID:filePath:line:column:)``.
///
/// A test uses it to wait for one action's effects in particular, or to cancel a long-lived
/// effect (a timer) the way a view going away would.
public struct TestStoreTask: Hashable, Sendable {
    let task: StoreTask
    let timeout: Duration
    /// Set once every effect of the action has finished; lets ``finish(timeout:fileID:filePath:line:column:)``
    /// give up after a timeout without leaving a task behind.
    private let isDone: LockIsolated<Bool>

    init(bag: TaskBag, timeout: Duration) {
        let task = StoreTask(bag: bag)
        self.task = task
        self.timeout = timeout
        let isDone = LockIsolated(task.rawValue == nil)
        if let rawValue = task.rawValue {
            Task {
                await rawValue.value
                isDone.setValue(true)
            }
        }
        self.isDone = isDone
    }

    /// Waits for the effects to finish; fails the test if they are still running after
    /// `timeout` (real time).
    public func finish(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let timeout = timeout ?? self.timeout
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while !isDone.value {
            guard ContinuousClock.now < deadline else {
                reportIssue(
                    """
                    Expected the effects of this action to finish within \(timeout), but they are \
                    still running. If one waits on a test clock, advance it first.
                    """,
                    fileID: fileID, filePath: filePath, line: line, column: column)
                return
            }
            await Task.yield()
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Cancels the effects and waits until they have stopped.
    public func cancel() async {
        task.cancel()
        await task.rawValue?.value
    }

    /// Whether ``cancel()`` has been called.
    public var isCancelled: Bool { task.isCancelled }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.task == rhs.task }
    public func hash(into hasher: inout Hasher) { hasher.combine(task) }
}
