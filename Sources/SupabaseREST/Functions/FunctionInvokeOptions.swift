import Foundation

/// How to call an Edge Function: method, body, headers, region.
///
/// The body's Swift type picks the `Content-Type`, as supabase-swift does: `Data` →
/// `application/octet-stream`, `String` → `text/plain`, anything else `Encodable` → JSON
/// (`application/json`, shared encoder). A `Content-Type` in ``headers`` wins. Without a
/// body nothing is sent and no `Content-Type` either.
public struct FunctionInvokeOptions: Sendable {
    /// An HTTP method a function accepts.
    public enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case patch = "PATCH"
        case delete = "DELETE"
    }

    /// The method; `POST` when `nil`.
    public var method: Method?
    /// Extra headers, applied last (highest priority).
    public var headers: [String: String]
    /// Query parameters passed through to the function.
    public var query: [URLQueryItem]
    /// The region to run in (`x-region` header and `forceFunctionRegion=` parameter); the
    /// client's default region when `nil`.
    public var region: FunctionRegion?

    enum Body: Sendable {
        case none
        case bytes(Data, contentType: String)
        case unencodable(String)
    }

    var body: Body

    /// Options without a body.
    public init(
        method: Method? = nil,
        query: [URLQueryItem] = [],
        headers: [String: String] = [:],
        region: FunctionRegion? = nil
    ) {
        self.method = method
        self.query = query
        self.headers = headers
        self.region = region
        body = .none
    }

    /// Options with a body; see the type's description for how it is encoded. An encoding
    /// failure is reported when the function is invoked (this initializer cannot throw, to
    /// keep supabase-swift's signature).
    public init(
        method: Method? = nil,
        query: [URLQueryItem] = [],
        headers: [String: String] = [:],
        region: FunctionRegion? = nil,
        body: some Encodable
    ) {
        self.init(method: method, query: query, headers: headers, region: region)
        if let data = body as? Data {
            self.body = .bytes(data, contentType: "application/octet-stream")
        } else if let string = body as? String {
            self.body = .bytes(Data(string.utf8), contentType: "text/plain")
        } else {
            do {
                self.body = .bytes(try SupabaseJSON.makeEncoder().encode(body), contentType: "application/json")
            } catch {
                self.body = .unencodable(String(describing: error))
            }
        }
    }
}

/// A Supabase Edge Functions region, e.g. `.usEast1` or `"eu-central-1"`.
public struct FunctionRegion: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    /// The region identifier sent on the wire.
    public var rawValue: String

    /// Creates a region from its identifier.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a region from a literal identifier.
    public init(stringLiteral value: String) { rawValue = value }

    /// `any`.
    public static let any: FunctionRegion = "any"
    /// `ap-northeast-1`.
    public static let apNortheast1: FunctionRegion = "ap-northeast-1"
    /// `ap-northeast-2`.
    public static let apNortheast2: FunctionRegion = "ap-northeast-2"
    /// `ap-south-1`.
    public static let apSouth1: FunctionRegion = "ap-south-1"
    /// `ap-southeast-1`.
    public static let apSoutheast1: FunctionRegion = "ap-southeast-1"
    /// `ap-southeast-2`.
    public static let apSoutheast2: FunctionRegion = "ap-southeast-2"
    /// `ca-central-1`.
    public static let caCentral1: FunctionRegion = "ca-central-1"
    /// `eu-central-1`.
    public static let euCentral1: FunctionRegion = "eu-central-1"
    /// `eu-west-1`.
    public static let euWest1: FunctionRegion = "eu-west-1"
    /// `eu-west-2`.
    public static let euWest2: FunctionRegion = "eu-west-2"
    /// `eu-west-3`.
    public static let euWest3: FunctionRegion = "eu-west-3"
    /// `sa-east-1`.
    public static let saEast1: FunctionRegion = "sa-east-1"
    /// `us-east-1`.
    public static let usEast1: FunctionRegion = "us-east-1"
    /// `us-west-1`.
    public static let usWest1: FunctionRegion = "us-west-1"
    /// `us-west-2`.
    public static let usWest2: FunctionRegion = "us-west-2"
}

/// An Edge Function call that did not succeed.
public enum FunctionsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The gateway/relay itself failed (response header `x-relay-error: true`).
    case relayError
    /// The function answered with a non-2xx status; `data` is the raw body (functions pick
    /// their own error format, commonly `{"error": "…"}`).
    case httpError(code: Int, data: Data)
    /// The body given in ``FunctionInvokeOptions`` could not be encoded.
    case bodyEncodingFailed(String)

    public var description: String {
        switch self {
        case .relayError: "Relay Error invoking the Edge Function"
        case .httpError(let code, let data):
            "Edge Function returned a non-2xx status code: \(code) \(String(decoding: data.prefix(200), as: UTF8.self))"
        case .bodyEncodingFailed(let message): "Could not encode the function body: \(message)"
        }
    }
}
