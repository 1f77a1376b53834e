import Foundation

/// Configuration of a ``SupabaseClient``, grouped per service as in supabase-swift.
public struct SupabaseClientOptions: Sendable {
    /// PostgREST options.
    public struct DatabaseOptions: Sendable {
        /// The schema to query (`Accept-Profile`/`Content-Profile`); the server's default
        /// (`public`) when `nil`, in which case no profile header is sent.
        public var schema: String?

        /// Creates options.
        public init(schema: String? = nil) { self.schema = schema }
    }

    /// Auth options.
    public struct AuthOptions: Sendable {
        /// Where the session is kept. In memory by default (Linux has no keychain); use
        /// ``FileAuthStorage`` to stay signed in across launches.
        public var storage: any AuthLocalStorage
        /// The storage key; `sb-<project ref>-auth-token` (supabase-swift's) when `nil`.
        public var storageKey: String?
        /// Sessions expiring within this interval are refreshed before use.
        public var refreshMargin: Duration

        /// Creates options.
        public init(
            storage: any AuthLocalStorage = InMemoryAuthStorage(),
            storageKey: String? = nil,
            refreshMargin: Duration = .seconds(60)
        ) {
            self.storage = storage
            self.storageKey = storageKey
            self.refreshMargin = refreshMargin
        }
    }

    /// Options shared by every service.
    public struct GlobalOptions: Sendable {
        /// Headers added to every request (they override the library's, except
        /// `Authorization`, which follows the session).
        public var headers: [String: String]
        /// The network seam; replace it to test or to route requests in-process.
        public var transport: any HTTPTransport
        /// When `GET`/`HEAD` requests are retried.
        public var retryPolicy: RetryPolicy
        /// The time limit of one attempt of a PostgREST or Auth request; exceeding it throws
        /// ``TransportError/timedOut(after:)``.
        public var timeout: Duration

        /// Creates options.
        public init(
            headers: [String: String] = [:],
            transport: any HTTPTransport = URLSessionTransport(),
            retryPolicy: RetryPolicy = .default,
            timeout: Duration = .seconds(60)
        ) {
            self.headers = headers
            self.transport = transport
            self.retryPolicy = retryPolicy
            self.timeout = timeout
        }
    }

    /// Edge Functions options.
    public struct FunctionsOptions: Sendable {
        /// The default region of invocations.
        public var region: FunctionRegion?
        /// The time limit of one invocation (150 s, the platform's own limit, by default).
        public var timeout: Duration

        /// Creates options.
        public init(region: FunctionRegion? = nil, timeout: Duration = .seconds(150)) {
            self.region = region
            self.timeout = timeout
        }
    }

    /// PostgREST options.
    public var db: DatabaseOptions
    /// Auth options.
    public var auth: AuthOptions
    /// Options shared by every service.
    public var global: GlobalOptions
    /// Edge Functions options.
    public var functions: FunctionsOptions
    /// Realtime options (socket transport, heartbeat, reconnection, timeouts).
    public var realtime: RealtimeClientOptions

    /// Creates options.
    public init(
        db: DatabaseOptions = .init(),
        auth: AuthOptions = .init(),
        global: GlobalOptions = .init(),
        functions: FunctionsOptions = .init(),
        realtime: RealtimeClientOptions = .init()
    ) {
        self.db = db
        self.auth = auth
        self.global = global
        self.functions = functions
        self.realtime = realtime
    }
}
