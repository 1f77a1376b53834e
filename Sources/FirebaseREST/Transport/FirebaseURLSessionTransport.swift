import Foundation
import HTTPExchange

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The default ``FirebaseHTTPTransport``: Foundation's `URLSession` (libcurl on Linux).
///
/// Uses `URLSession.data(for:)`, which exists on Darwin and Linux alike (unlike
/// `bytes(for:)`). `URLError.timedOut` becomes ``FirebaseTransportError/timedOut(after:)`` and
/// every other `URLError` becomes ``FirebaseTransportError/network(message:)``, so callers see
/// the same errors on every platform.
public struct FirebaseURLSessionTransport: FirebaseHTTPTransport {
  private let session: URLSession

  /// Creates a transport over `session` (the shared session by default).
  public init(session: URLSession = .shared) {
    self.session = session
  }

  public func send(_ request: FirebaseHTTPRequest) async throws -> FirebaseHTTPResponse {
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method.rawValue
    for (name, value) in request.headers {
      urlRequest.setValue(value, forHTTPHeaderField: name)
    }
    urlRequest.httpBody = request.body
    if let timeout = request.timeout {
      // FoundationNetworking (Linux) truncates the interval to whole seconds, so 0.3 s
      // times out at once and 1.5 s after 1 s. Round up to a whole second (at least one):
      // the precise deadline is enforced above the transport, which races every attempt
      // against its own timer.
      urlRequest.timeoutInterval = max(1, timeout.firebaseTimeInterval.rounded(.up))
    }

    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await session.dataWithoutCancelling(for: urlRequest)
    } catch let error as URLError {
      if error.code == .timedOut {
        throw FirebaseTransportError.timedOut(after: request.timeout ?? .seconds(urlRequest.timeoutInterval))
      }
      if error.code == .cancelled { throw CancellationError() }
      throw FirebaseTransportError.network(message: error.localizedDescription)
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      throw FirebaseTransportError.network(message: String(describing: error))
    }

    guard let http = response as? HTTPURLResponse else {
      throw FirebaseTransportError.network(message: "The response is not an HTTP response")
    }
    var headers: [String: String] = [:]
    for (name, value) in http.allHeaderFields {
      headers[String(describing: name)] = String(describing: value)
    }
    return FirebaseHTTPResponse(status: http.statusCode, headers: headers, body: data)
  }
}

extension Duration {
  /// The duration in seconds, as Foundation's `TimeInterval`.
  var firebaseTimeInterval: TimeInterval {
    let (seconds, attoseconds) = components
    return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
  }
}
