import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default ``HTTPTransport``: Foundation's `URLSession` (libcurl on Linux).
///
/// Uses `URLSession.data(for:)`, which exists on both Darwin and Linux Foundation (unlike
/// `bytes(for:)`), through ``Foundation/URLSession/dataWithoutCancelling(for:)`` so that a
/// cancelled caller never cancels a task on Linux. `URLError.timedOut` becomes
/// ``TransportError/timedOut(after:)`` and every other `URLError` becomes
/// ``TransportError/network(message:)``, so callers see the same errors whatever the platform.
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// Creates a transport over `session` (the shared session by default).
    public init(session: URLSession = .shared) {
        self.session = session
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headers {
            urlRequest.setValue(field.value, forHTTPHeaderField: field.name)
        }
        urlRequest.httpBody = request.body
        if let timeout = request.timeout {
            // FoundationNetworking (Linux) truncates the interval to whole seconds, so 0.3 s
            // times out at once and 1.5 s after 1 s. Round up to a whole second (at least one):
            // the precise deadline is enforced above the transport, which races every attempt
            // against its own timer.
            urlRequest.timeoutInterval = max(1, timeout.timeInterval.rounded(.up))
        }

        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.dataWithoutCancelling(for: urlRequest)
        } catch let error as URLError {
            if error.code == .timedOut {
                throw TransportError.timedOut(after: request.timeout ?? .seconds(urlRequest.timeoutInterval))
            }
            if error.code == .cancelled { throw CancellationError() }
            throw TransportError.network(message: error.localizedDescription)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw TransportError.network(message: String(describing: error))
        }

        guard let http = response as? HTTPURLResponse else {
            throw TransportError.network(message: "The response is not an HTTP response")
        }
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields {
            headers[String(describing: name)] = String(describing: value)
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }
}

extension Duration {
    /// The duration in seconds, as Foundation's `TimeInterval` (URLSession's, `Date`'s unit).
    /// `package`: the wire clients use it, their users have their own.
    package var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
