import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import SupabaseREST
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Seed 000's `SupabaseBaseAdapter`, compiled against SupabaseREST with only the import
// changed, except where the seed is not supabase-swift:
// - the seed reads `supabaseClient.functionsUrl`; supabase-swift spells it `functionsURL`
//   (a `URL`), which interpolates to the same string;
// - the seed builds the client with `SupabaseClient(url:anonKey:)`; supabase-swift's
//   initialiser is `SupabaseClient(supabaseURL:supabaseKey:)`, used below;
// - `URL(string: endpoint)!` is kept out of the input path: a `guard` throws instead.

private protocol AuthProvider: Sendable {
    func getIdToken() async throws -> String
}

private enum SupabaseError: Error, Equatable {
    case unauthorized, notFound, badRequest, serverError, invalidResponse
}

private final class SupabaseBaseAdapter: Sendable {
    private let supabaseClient: SupabaseClient
    private let authProvider: any AuthProvider

    init(supabaseClient: SupabaseClient, authProvider: any AuthProvider) {
        self.supabaseClient = supabaseClient
        self.authProvider = authProvider
    }

    func callFunction<Request: Encodable, Response: Decodable>(name: String, request: Request) async throws -> Response {
        guard let token = try? await authProvider.getIdToken() else { throw SupabaseError.unauthorized }
        let headers = [
            "Authorization": "Bearer \(token)", "Content-Type": "application/json",
            // Supabase's gateway also wants the project key; the seed leaves it out.
            "apikey": supabaseClient.supabaseKey,
        ]
        let jsonData = try JSONEncoder().encode(request)
        let endpoint = "\(supabaseClient.functionsURL)/\(name)"
        guard let url = URL(string: endpoint) else { throw SupabaseError.badRequest }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = jsonData
        for (key, value) in headers { request.setValue(value, forHTTPHeaderField: key) }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let httpResponse = response as? HTTPURLResponse else { throw SupabaseError.invalidResponse }
        switch httpResponse.statusCode {
        case 200...299: return try JSONDecoder().decode(Response.self, from: data)
        case 401: throw SupabaseError.unauthorized
        case 404: throw SupabaseError.notFound
        case 400: throw SupabaseError.badRequest
        default: throw SupabaseError.serverError
        }
    }
}

private struct FixedToken: AuthProvider {
    let token: String?
    func getIdToken() async throws -> String {
        guard let token else { throw SupabaseError.unauthorized }
        return token
    }
}

@Suite("Seed 000 base adapter live against lifesignal serve")
struct Seed000BaseAdapterLiveTests {
    struct Empty: Codable {}
    struct CheckInResponse: Decodable {
        let success: Bool
        let nextCheckInTime: String
    }

    @Test("callFunction posts to functionsURL and maps 200, 400, 401 and 404 as the seed's table says", arguments: Engine.allCases)
    func statusMapping(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let session = try await test.signIn("+15550007777")
        let client = SupabaseClient(supabaseURL: server.baseURL, supabaseKey: server.anonKey)
        #expect(client.functionsURL.absoluteString == server.baseURL.absoluteString + "/functions/v1")

        let adapter = SupabaseBaseAdapter(supabaseClient: client, authProvider: FixedToken(token: session.accessToken))
        let first: CheckInResponse = try await adapter.callFunction(name: "check-in", request: Empty())
        #expect(first.success)
        #expect(first.nextCheckInTime == Timestamp.format(test.clock.now.addingTimeInterval(86400)))
        await #expect(throws: SupabaseError.badRequest, "a repeat within five minutes") {
            let _: CheckInResponse = try await adapter.callFunction(name: "check-in", request: Empty())
        }
        await #expect(throws: SupabaseError.notFound) {
            let _: CheckInResponse = try await adapter.callFunction(name: "no-such-function", request: Empty())
        }
        let forged = SupabaseBaseAdapter(supabaseClient: client, authProvider: FixedToken(token: "a.b.c"))
        await #expect(throws: SupabaseError.unauthorized) {
            let _: CheckInResponse = try await forged.callFunction(name: "check-in", request: Empty())
        }
        let signedOut = SupabaseBaseAdapter(supabaseClient: client, authProvider: FixedToken(token: nil))
        await #expect(throws: SupabaseError.unauthorized) {
            let _: CheckInResponse = try await signedOut.callFunction(name: "check-in", request: Empty())
        }
        #expect(try await test.count("check_ins") == 1)
    }
}
