import Foundation
import LifeSignalTestSupport
import Testing

/// The test suites' child-process helper: what the CLI, stand-in and browser tests rely on.
@Suite("ChildProcess (test support)")
struct ChildProcessTests {
    @Test("exit codes, both streams in full (past a pipe's 64 KiB), and exactly the environment given")
    func runToTheEnd() async throws {
        let result = try await ChildProcess.run(
            "/bin/sh",
            arguments: [
                "-c", "head -c 300000 /dev/zero | tr '\\0' a; echo; echo \"to stderr $GREETING\" >&2; exit 7",
            ], environment: ["GREETING": "hello", "PATH": "/usr/bin:/bin"])
        #expect(result.status == 7 && !result.timedOut)
        #expect(result.output.count == 300_001 && result.output.allSatisfy { $0 == "a" || $0 == "\n" })
        #expect(result.error == "to stderr hello\n")
    }

    @Test("a signal ends the child as 128 + the signal; a child past its limit is killed and says so")
    func signals() async throws {
        let child = try ChildProcess("/bin/sleep", arguments: ["30"])
        #expect(child.isRunning)
        child.send(SIGTERM)
        #expect(await child.finish().status == 128 + SIGTERM)
        #expect(!child.isRunning)
        child.send(SIGKILL)  // reaped already: nothing is sent to a pid that may be another's

        let stuck = try await ChildProcess.run("/bin/sleep", arguments: ["30"], within: .milliseconds(200))
        #expect(stuck.timedOut && stuck.status == 128 + SIGKILL)
    }

    @Test("input through a pipe, output line by line as it comes, no other descriptor inherited")
    func pipesAndDescriptors() async throws {
        let child = try ChildProcess(
            "/bin/sh", arguments: ["-c", "while read line; do echo \"got $line\"; done; ls /proc/self/fd"],
            input: .pipe)
        var lines = child.outputLines.makeAsyncIterator()
        child.writeInput(Data("one\n".utf8))
        #expect(await lines.next() == "got one")
        child.writeInput(Data("two\n".utf8))
        #expect(await lines.next() == "got two")
        child.closeInput()
        var rest: [String] = []
        while let line = await lines.next() { rest.append(line) }
        // 0, 1, 2, and the descriptor `ls` opens for the directory itself.
        #expect(rest.compactMap { Int($0) }.filter { $0 > 3 } == [], "inherited: \(rest)")
        #expect(await child.finish().status == 0)
    }
}
