import FirebaseREST
import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions

/// Firebase Storage's rules-aware v0 API, played by the backend's file storage: the
/// project's one bucket holds `<backend bucket>/<path>`, so `avatars/<uid>/avatar` is the
/// backend's `avatars` bucket, path `<uid>/avatar`, under the same ownership rules.
extension FirebaseReplayTransport {
    /// A download token per object, kept across overwrites as Firebase keeps it, and the
    /// object's generation, new on every write (the backend's clock may stand still).
    actor DownloadTokens {
        private var tokens: [String: String] = [:]
        private var generations: [String: Int64] = [:]
        func write(_ name: String, at time: Date) -> Int64 {
            let generation = max(Int64((time.timeIntervalSince1970 * 1_000_000).rounded()), (generations[name] ?? 0) + 1)
            generations[name] = generation
            return generation
        }
        func generation(of name: String) -> Int64 { generations[name] ?? 1 }
        func token(for name: String) -> String {
            if let token = tokens[name] { return token }
            let token = UUID().uuidString.lowercased()
            tokens[name] = token
            return token
        }
        func matches(_ token: String?, _ name: String) -> Bool { token != nil && tokens[name] == token }
    }

    func storage(_ request: FirebaseHTTPRequest) async -> FirebaseHTTPResponse {
        guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else { return Self.pageNotFound }
        let segments = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard segments.count >= 5, segments[1] == "v0", segments[2] == "b", segments[3] == Self.bucket, segments[4] == "o" else {
            return Self.storageError(404, "Not Found.")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { first, _ in first }
        let name = segments.count > 5 ? segments[5].removingPercentEncoding : query["name"]
        guard let name, let slash = name.firstIndex(of: "/") else { return Self.storageError(400, "Invalid object name.") }
        let bucket = String(name[..<slash])
        let path = String(name[name.index(after: slash)...])
        var caller: Caller
        do {
            let header = request.header("Authorization")
            guard header == nil || header?.hasPrefix("Firebase ") == true else { throw DomainError.unauthenticated }
            caller = try await backend.auth.tokens.caller(bearer: header.map { String($0.dropFirst("Firebase ".count)) })
        } catch {
            return Self.storageError(401, "Unauthenticated.")
        }
        do {
            switch (request.method, segments.count > 5) {
            case (.post, false):
                let stored = try await backend.files.upload(
                    caller: caller, bucket: bucket, path: path, data: request.body ?? Data(),
                    contentType: request.header("Content-Type") ?? "application/octet-stream", upsert: true)
                _ = await downloadTokens.write(name, at: stored.updatedAt)
                return Self.json(200, await metadata(stored, name: name))
            case (.get, true):
                // A download token opens the object whatever the rules say, as on Firebase.
                if await downloadTokens.matches(query["token"], name) { caller = .service }
                let (data, object) = try await backend.files.download(caller: caller, bucket: bucket, path: path)
                if query["alt"] == "media" {
                    return FirebaseHTTPResponse(status: 200, headers: ["Content-Type": object.contentType], body: data)
                }
                return Self.json(200, await metadata(object, name: name))
            case (.delete, true):
                let removed = try await backend.files.remove(caller: caller, bucket: bucket, paths: [path])
                return removed.isEmpty ? Self.storageError(404, "Not Found.") : FirebaseHTTPResponse(status: 204)
            default:
                return Self.storageError(400, "Invalid request.")
            }
        } catch let failure as StorageFailure {
            return Self.storageError(for: failure)
        } catch {
            return Self.storageError(500, "Internal error.")
        }
    }

    private func metadata(_ object: StoredObject, name: String) async -> [String: Any] {
        [
            "name": name, "bucket": Self.bucket, "contentType": object.contentType, "size": String(object.size),
            "generation": String(await downloadTokens.generation(of: name)),
            "downloadTokens": await downloadTokens.token(for: name),
        ]
    }

    /// Size and type limits are security rules on Firebase, hence 403 like other refusals.
    static func storageError(for failure: StorageFailure) -> FirebaseHTTPResponse {
        switch failure {
        case .bucketNotFound, .objectNotFound: storageError(404, "Not Found.")
        case .invalidPath: storageError(400, "Invalid object name.")
        case .unauthenticated: storageError(401, "Unauthenticated.")
        case .forbidden, .tooLarge, .unsupportedType, .rejectedImage: storageError(403, "Permission denied.")
        case .alreadyExists: storageError(412, "Precondition failed.")
        }
    }

    /// `{"error":{"code":…,"message":"…"}}`: the v0 API names no status.
    static func storageError(_ status: Int, _ message: String) -> FirebaseHTTPResponse {
        json(status, ["error": ["code": status, "message": message]])
    }
}
