import IssueReporting
import Testing

/// Routes IssueReporting's `reportIssue` (used by the test store and by swift-dependencies'
/// unimplemented endpoints) into Swift Testing's `Issue.record`.
///
/// On Apple platforms IssueReporting finds Swift Testing by itself. On Linux it looks for the
/// `IssueReportingTestSupport` library in the test binary, and this test target does not link
/// it (Package.swift would have to add that product), so without this trait issues are only
/// printed and tests pass that should fail. The trait is scoped per test, not installed
/// globally, so it cannot affect other targets' tests running in the same process.
struct SwiftTestingIssueReporter: IssueReporter {
    func reportIssue(
        _ message: @autoclosure () -> String?,
        severity: IssueSeverity,
        fileID: StaticString,
        filePath: StaticString,
        line: UInt,
        column: UInt
    ) {
        Issue.record(
            Comment(rawValue: message() ?? "Issue reported"),
            sourceLocation: SourceLocation(
                fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column)))
    }

    func expectIssue(
        _ message: @autoclosure () -> String?,
        fileID: StaticString,
        filePath: StaticString,
        line: UInt,
        column: UInt
    ) {}
}

/// `@Suite(.reportsIssues)`: runs each test with ``SwiftTestingIssueReporter`` installed.
struct ReportsIssuesTrait: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withIssueReporters([SwiftTestingIssueReporter()]) {
            try await function()
        }
    }
}

extension Trait where Self == ReportsIssuesTrait {
    static var reportsIssues: Self { ReportsIssuesTrait() }
}
