import Foundation
import LifeSignalTestSupport
import Testing

/// `lifesignal demo` as a new user runs it: the whole story, told the same way every time.
@Suite("Command line: demo")
struct DemoCommandTests {
    @Test("the demo tells every part of the story and exits 0, identically on two runs")
    func demo() async throws {
        func run() async throws -> (Int32, String) {
            let result = try await ChildProcess.run(CommandLineTests.executable.path, arguments: ["demo"], within: .seconds(300))
            return (result.status, result.output)
        }
        let (status, story) = try await run()
        #expect(status == 0, "demo failed: \(story)")
        for part in [
            "The app says: The code is wrong", "Onboarding: her name", "sees \"Alice Reyes\"", "her Responders screen now lists Bob Okafor",
            "a fresh code, valid until Fri 08:10 and for one person", "Scanned again, the code finds nobody: QR code was not found",
            "Request sent, waiting for Bob Okafor to accept you as their responder", "\"Alice Reyes asks to become your responder\"; he accepts",
            "His Responders screen now lists Alice Reyes",
            "Alice checks in. Her next deadline is Sat 08:00.", "try again in 240 s", "the button is yellow", "the button is orange",
            "deadline passed 1.0 h ago; the button is red", "sweep finds 1 missed deadline", "Bob's phone, at once: \"Emergency Alert",
            "under \"Missed check-in\"", "Bob pings her", "shows the ping from Bob Okafor", "safe again, no ping pending: true",
            "SOS sent: your responders have been told", "under \"SOS\"", "shows Bob Okafor responding", "Bob's screen clears it.",
            "The server answers her by text: \"LifeSignal: checked in.",
            "Bob's phone rings; a voice says: \"This is LifeSignal with an urgent message. Alice Reyes's check-in has expired. Press 1",
            "He presses 1: \"Thank you. They have been told you are on it.", "Alice's alert now shows Bob Okafor on it.",
            "Searching \"  CELLAR \" (any case): Fiddletown Cellars, Cellar Door Café", "Routes now: River Walk",
        ] {
            #expect(story.contains(part), "missing: \(part)")
        }
        let (_, again) = try await run()
        #expect(again == story, "the story changed between runs")
    }
}
