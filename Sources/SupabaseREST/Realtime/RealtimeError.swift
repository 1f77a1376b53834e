import Foundation

/// Why a Realtime operation failed.
///
/// supabase-swift reports these as a message-only struct; here they are cases, so that a
/// caller can tell "the server refused this channel" (which retrying will not fix) from
/// "the network is away" (which the client's reconnection will). `localizedDescription`
/// still reads as a sentence, so code that only displays the error keeps working.
public enum RealtimeError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The server answered the channel's `phx_join` with status `error`. `reason` is the
    /// server's own explanation, e.g. `permission denied for table notifications`.
    case joinRefused(topic: String, reason: String)
    /// The join was accepted, but the `postgres_changes` bindings of the reply are not the
    /// ones the channel asked for (count or any of event, schema, table, filter). Changes
    /// could not be routed reliably, so the channel is left.
    case bindingsMismatch(topic: String, requested: [String], received: [String])
    /// `operation` did not complete within the configured ``RealtimeClientOptions/timeoutInterval``.
    case timedOut(operation: String, after: Duration)
    /// The socket is not connected (or was lost before the server answered).
    case notConnected
    /// The Realtime URL cannot be used for a WebSocket (it is shown without its query, which
    /// holds the API key).
    case invalidURL(String)
    /// The socket could not be opened or failed; the text describes the cause.
    case transport(message: String)
    /// A frame from the server is not a Phoenix message.
    case malformedMessage(String)

    public var description: String {
        switch self {
        case .joinRefused(let topic, let reason):
            "The server refused to join \(topic): \(reason)"
        case .bindingsMismatch(let topic, let requested, let received):
            "The server's postgres_changes bindings for \(topic) do not match the request: "
                + "asked for [\(requested.joined(separator: "; "))], got [\(received.joined(separator: "; "))]"
        case .timedOut(let operation, let duration):
            "Realtime: \(operation) timed out after \(duration)"
        case .notConnected:
            "Realtime: the socket is not connected"
        case .invalidURL(let url):
            "Realtime: \(url) is not a WebSocket URL (expected ws://, wss://, http:// or https://)"
        case .transport(let message):
            "Realtime: the socket failed: \(message)"
        case .malformedMessage(let why):
            "Realtime: a frame from the server is not a Phoenix message: \(why)"
        }
    }

    public var errorDescription: String? { description }
}
