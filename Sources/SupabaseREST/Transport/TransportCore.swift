/// The transport is HTTPTransportCore's, shared with FirebaseREST: `HTTPTransport`,
/// `HTTPRequest`, `HTTPResponse`, `HTTPHeaders`, `RetryPolicy`, `TransportError`,
/// `URLSessionTransport`, `AnyJSON`, … are re-exported so that code importing SupabaseREST (as it would
/// import supabase-swift) names them without a second import.
@_exported import HTTPTransportCore
