/// A failure to obtain an HTTP response at all.
///
/// Errors the server *answered* with are not transport errors: each wire client turns them
/// into its own typed error (`PostgrestError` and `AuthError` for Supabase, `FirestoreError`
/// and `IdentityToolkitError` for Firebase, …). A `TransportError` means there is no status
/// code to look at, which is why callers can treat it alike for every service: show "offline",
/// retry later.
public enum TransportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A URL could not be built from the configuration or the given name or path. Raised instead
    /// of crashing because table names, document paths and object names often come from user
    /// input.
    case invalidURL(String)
    /// No response arrived within the per-request time limit.
    case timedOut(after: Duration)
    /// The connection failed (refused, reset, DNS, TLS, …). The text describes the cause.
    case network(message: String)

    public var description: String {
        switch self {
        case .invalidURL(let url): "Invalid URL: \(url)"
        case .timedOut(let duration): "The request timed out after \(duration)"
        case .network(let message): "Network error: \(message)"
        }
    }
}
