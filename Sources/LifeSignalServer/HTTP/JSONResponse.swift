import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension HTTPField.Name {
    static let apiKey = Self("apikey")!
    static let supabaseAPIVersion = Self("X-Supabase-Api-Version")!
    static let sbErrorCode = Self("x-sb-error-code")!
    static let contentRange = Self("Content-Range")!
    static let preferenceApplied = Self("Preference-Applied")!
    static let prefer = Self("Prefer")!
    static let range = Self("Range")!
    static let proxyStatus = Self("Proxy-Status")!
    static let xUpsert = Self("x-upsert")!
}

/// Builds JSON responses; every error body in the server goes through here so its
/// `Content-Type` and encoding are always the same.
enum JSONResponse {
    static let contentType = "application/json; charset=utf-8"

    static func make(_ status: HTTPResponse.Status, data: Data, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = contentType
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func make<T: Encodable>(_ status: HTTPResponse.Status, _ value: T, headers: HTTPFields = [:]) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding the server's own reply types cannot fail; an empty object is the fallback.
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return make(status, data: data, headers: headers)
    }

    /// `{"code": "…", "message": "…"}`: what functions and the 2024-01-01 auth API return.
    static func error(_ status: HTTPResponse.Status, code: String, message: String, extra: [String: String] = [:], headers: HTTPFields = [:]) -> Response {
        var body = extra
        body["code"] = code
        body["message"] = message
        return make(status, body, headers: headers)
    }
}

/// Reads a request body up to `limit` bytes; a larger body is a ``BodyTooLarge`` error rather
/// than memory spent on it. Each API words it with the limit that was passed.
struct BodyTooLarge: Error {
    let limit: Int
}

extension Request {
    func collectBody(limit: Int) async throws -> Data {
        do {
            var buffer = try await body.collect(upTo: limit)
            return buffer.readData(length: buffer.readableBytes) ?? Data()
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw BodyTooLarge(limit: limit)
        } catch is NIOTooManyBytesError {
            throw BodyTooLarge(limit: limit)
        }
    }
}
