import Foundation
import Testing

@testable import SupabaseREST

/// The default socket transport's refusals (its successful path runs in the live tests
/// against `lifesignal serve`).
@Suite(.timeLimit(.minutes(10))) struct RealtimeTransportTests {
    @Test func aURLThatIsNotAWebSocketIsRefusedWithoutItsKey() async {
        let url = URL(string: "ftp://example.com/realtime/v1/websocket?apikey=secret&vsn=2.0.0")!
        await #expect(throws: RealtimeError.invalidURL("ftp://example.com/realtime/v1/websocket")) {
            _ = try await WSClientTransport().connect(to: url, headers: [:])
        }
    }

    @Test(arguments: ["ws", "wss"])
    func aRefusedConnectionIsATransportError(scheme: String) async {
        // Port 1 on the loopback: nothing listens, the connection is refused at once.
        let url = URL(string: "\(scheme)://127.0.0.1:1/realtime/v1/websocket?apikey=secret&vsn=2.0.0")!
        await #expect {
            _ = try await WSClientTransport().connect(to: url, headers: ["apikey": "secret"])
        } throws: { error in
            guard case RealtimeError.transport(let message) = error else { return false }
            return !message.contains("secret")
        }
    }
}
