import Logging
import NIOCore

/// Hummingbird logs "Error handling upgrade result" at error level whenever a connection
/// closes before its first request was read: a client that connected and left, or one the
/// connection guards closed (a deadline passed, a head too large, an address over its cap).
/// That is the guards working, and at error level a stranger could fill the log with it, so
/// this handler logs exactly that case at debug; every other message keeps its level.
struct ConnectionLogFilter: LogHandler {
    private var inner: any LogHandler

    /// `logger` with the filter in front of its handler (its level and metadata unchanged).
    static func wrapping(_ logger: Logger) -> Logger {
        Logger(label: logger.label) { _ in ConnectionLogFilter(inner: logger.handler) }
    }

    private init(inner: any LogHandler) {
        self.inner = inner
    }

    private static let closedBeforeRequest = "\(ChannelError.inappropriateOperationForState)"

    func log(event: LogEvent) {
        var event = event
        if event.level > .debug, event.message.description == "Error handling upgrade result",
            case .string(let type)? = event.metadata?["error.type"], type == Self.closedBeforeRequest
        {
            guard inner.logLevel <= .debug else { return }
            event.level = .debug
        }
        inner.log(event: event)
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }
}
