import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// `/storage/v1` stores only pictures whose bytes are the image type declared, serves them as
/// that type with `nosniff` and `sandbox`, and caps their pixels (issue 18, item 6).
@Suite("/storage/v1 uploads that cannot carry script")
struct StorageImageTests {
    static func upload(_ server: TestServer, _ session: IssuedSession, _ name: String, _ body: Data, type: String) async throws -> TestServer.Reply {
        try await server.request(
            "PUT", "/storage/v1/object/avatars/\(session.user.id)/\(name)", bearer: session.accessToken,
            headers: ["Content-Type": type], body: body)
    }

    @Test(
        "each format taken is stored and served back as the type its bytes are, with nosniff and sandbox, public and signed in",
        arguments: Engine.allCases)
    func formatsServedAsSniffed(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signIn("+15550001111")
        let cases: [(String, Data, String, String)] = [
            ("a.png", TestImages.png(width: 3, height: 2), "image/png", "image/png"),
            ("b.jpg", TestImages.jpeg, "image/jpg", "image/jpeg"),
            ("c.jpg", TestImages.progressiveJPEG, "image/jpeg; charset=binary", "image/jpeg"),
            ("d.webp", TestImages.webpLossy, "image/webp", "image/webp"),
            ("e.webp", TestImages.webpLossless, "image/webp", "image/webp"),
            ("f.webp", TestImages.webpExtended, "IMAGE/WEBP", "image/webp"),
            ("g.heic", TestImages.heic, "image/heif", "image/heic"),
        ]
        for (name, image, declared, served) in cases {
            let uploaded = try await Self.upload(server, alice, name, image, type: declared)
            #expect(uploaded.status == 200, "\(name): \(uploaded.text)")
            for path in ["public/avatars", "authenticated/avatars", "avatars"] {
                let anonymous = path.hasPrefix("public")
                let got = try await server.request(
                    "GET", "/storage/v1/object/\(path)/\(alice.user.id)/\(name)",
                    apiKey: anonymous ? .some(nil) : .none, bearer: anonymous ? nil : alice.accessToken)
                #expect(got.status == 200 && got.body == image, "\(path)/\(name)")
                #expect(got.header("Content-Type") == served, "\(path)/\(name)")
                #expect(got.header("X-Content-Type-Options") == "nosniff", "\(path)/\(name)")
                #expect(got.header("Content-Security-Policy") == "sandbox", "\(path)/\(name)")
                #expect(got.header("Content-Disposition") == nil, "\(path)/\(name): a picture is shown, not downloaded")
            }
        }
        let stored = try await test.backend.database.query("SELECT content_type FROM storage_objects ORDER BY name").map { try $0.string("content_type") }
        #expect(stored == cases.map(\.3))
    }

    @Test(
        "SVG, HTML and polyglots sent as images are refused with Storage's error shape, and nothing is stored",
        arguments: Engine.allCases)
    func scriptRefused(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signIn("+15550001111")
        let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)"/>"#.utf8)
        let html = Data("<!DOCTYPE html><html><body><script>fetch('/auth/v1/user')</script></body></html>".utf8)
        let cases: [(String, Data, String, Int, String)] = [
            ("svg as png", svg, "image/png", 415, "invalid_mime_type"),
            ("html as jpeg", html, "image/jpeg", 415, "invalid_mime_type"),
            ("svg as svg", svg, "image/svg+xml", 415, "invalid_mime_type"),
            ("gif", Data("GIF89a".utf8) + Data(repeating: 0, count: 64), "image/gif", 415, "invalid_mime_type"),
            ("a PNG sent as JPEG", TestImages.png(), "image/jpeg", 415, "invalid_mime_type"),
            ("PNG signature, then SVG", TestImages.pngSignature + svg, "image/png", 422, "invalid_image"),
            ("a PNG with HTML after it", TestImages.png() + html, "image/png", 422, "invalid_image"),
            ("a WebP with HTML after it", TestImages.webpLossy + html, "image/webp", 422, "invalid_image"),
            ("JPEG start, then HTML", Data([0xFF, 0xD8, 0xFF]) + html, "image/jpeg", 422, "invalid_image"),
            ("empty", Data(), "image/png", 415, "invalid_mime_type"),
        ]
        for (name, body, type, status, error) in cases {
            let reply = try await Self.upload(server, alice, "x", body, type: type)
            #expect(reply.status == status, "\(name): \(reply.status) \(reply.text)")
            #expect(reply.json?["statusCode"] as? String == String(status), "\(name)")
            #expect(reply.json?["error"] as? String == error, "\(name)")
            #expect((reply.json?["message"] as? String)?.isEmpty == false, "\(name)")
        }
        let markup = try await Self.upload(server, alice, "x", svg, type: "image/png")
        #expect((markup.json?["message"] as? String)?.contains("markup") == true, "the refusal says what the bytes look like")
        let mismatch = try await Self.upload(server, alice, "x", TestImages.png(), type: "image/jpeg")
        #expect(mismatch.json?["message"] as? String == "The file was sent as image/jpeg but its bytes are image/png")
        #expect(try await test.count("storage_objects") == 0)
        #expect(try await server.request("GET", "/storage/v1/object/public/avatars/\(alice.user.id)/x", apiKey: .some(nil)).status == 404)
    }

    @Test("pictures wider or taller than the limit are refused 413 in every format; the limit is a setting", arguments: Engine.allCases)
    func dimensionsCapped(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signIn("+15550001111")
        let cases: [(Data, String)] = [
            (TestImages.png(width: 4097, height: 1), "image/png"),
            (TestImages.jpeg(declaring: 8, 4097), "image/jpeg"),
            (TestImages.webpLossless(declaring: 5000, 5000), "image/webp"),
            (TestImages.webpExtended(declaring: 16_777_216, 1), "image/webp"),
            (TestImages.heic(declaring: 4096, 8192), "image/heic"),
        ]
        for (image, type) in cases {
            let reply = try await Self.upload(server, alice, "big", image, type: type)
            #expect(reply.status == 413, "\(type): \(reply.text)")
            #expect(reply.json?["error"] as? String == "Payload too large")
            #expect((reply.json?["message"] as? String)?.contains("at most 4096×4096") == true, "\(reply.text)")
        }
        #expect(try await test.count("storage_objects") == 0)
        // At the limit is taken.
        #expect(try await Self.upload(server, alice, "edge", TestImages.png(width: 4096, height: 1), type: "image/png").status == 200)
        #expect(try await Self.upload(server, alice, "edge", TestImages.heic(declaring: 4096, 4096), type: "image/heic").status == 200)

        let small = try await TestDatabases.backend(engine) { $0.imageLimits = ImageLimits(maximumWidth: 16, maximumHeight: 8) }
        let limited = try await TestServer.start(small.backend)
        defer { Task { await limited.stop() } }
        let bob = try await small.signIn("+15550002222")
        #expect(try await Self.upload(limited, bob, "a", TestImages.png(width: 16, height: 8), type: "image/png").status == 200)
        let wide = try await Self.upload(limited, bob, "b", TestImages.png(width: 17, height: 1), type: "image/png")
        #expect(wide.status == 413 && (wide.json?["message"] as? String)?.contains("17×1") == true, "\(wide.text)")
        #expect(try await Self.upload(limited, bob, "c", TestImages.jpeg, type: "image/jpeg").status == 200, "8×8 fits 16×8")
        // The HEIC's 64×64 tile counts, not only its 8×8 output.
        #expect(try await Self.upload(limited, bob, "d", TestImages.heic, type: "image/heic").status == 413)
    }

    @Test("cut-short and hostile headers are refused 422 over HTTP, and the server goes on answering", arguments: Engine.allCases)
    func hostileHeaders(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signIn("+15550001111")
        var loopingBox = [UInt8](TestImages.heic)
        // The meta box's size set to 4, shorter than its own header: a naive walk never moves.
        loopingBox.replaceSubrange(28..<32, with: [0, 0, 0, 4])
        var hugeChunk = [UInt8](TestImages.png())
        hugeChunk.replaceSubrange(33..<37, with: [0x7F, 0xFF, 0xFF, 0xFF])
        let cases: [(String, Data, String)] = [
            ("a PNG cut in its IHDR", TestImages.png().prefix(20), "image/png"),
            ("a PNG chunk of 2 GB", Data(hugeChunk), "image/png"),
            ("a JPEG of fill bytes", Data([0xFF, 0xD8]) + Data(repeating: 0xFF, count: 100_000), "image/jpeg"),
            ("a JPEG cut before its frame", TestImages.jpeg.prefix(100), "image/jpeg"),
            ("a WebP cut short", TestImages.webpExtended.prefix(40), "image/webp"),
            ("a HEIC box shorter than its header", Data(loopingBox), "image/heic"),
            ("a HEIC without its data", TestImages.heic.prefix(457), "image/heic"),
        ]
        for (name, body, type) in cases {
            let reply = try await Self.upload(server, alice, "x", body, type: type)
            #expect(reply.status == 422 && reply.json?["error"] as? String == "invalid_image", "\(name): \(reply.status) \(reply.text)")
        }
        #expect(try await test.count("storage_objects") == 0)
        #expect(try await Self.upload(server, alice, "x", TestImages.png(), type: "image/png").status == 200)
    }

    @Test(
        "an object stored before sniffing is served as opaque bytes, as an attachment; ?download names the file",
        arguments: Engine.allCases)
    func legacyAndDownload(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signIn("+15550001111")
        let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#.utf8)
        let owner = SQLValue.uuid(alice.user.id.rawValue)
        let now = SQLValue(Date())
        try await test.backend.database.query(
            """
            INSERT INTO storage_objects (bucket, name, owner, content_type, size, data, created_at, updated_at)
            VALUES ('avatars', \("\(alice.user.id)/old.svg"), \(owner), 'image/svg+xml', \(svg.count), \(SQLValue.bytes(svg)), \(now), \(now))
            """)
        let old = try await server.request("GET", "/storage/v1/object/public/avatars/\(alice.user.id)/old.svg", apiKey: .some(nil))
        #expect(old.status == 200 && old.body == svg)
        #expect(old.header("Content-Type") == "application/octet-stream")
        #expect(old.header("Content-Disposition") == #"attachment; filename="old.svg"; filename*=UTF-8''old.svg"#)
        #expect(old.header("X-Content-Type-Options") == "nosniff" && old.header("Content-Security-Policy") == "sandbox")

        #expect(try await Self.upload(server, alice, "me.png", TestImages.png(), type: "image/png").status == 200)
        let named = try await server.request(
            "GET", "/storage/v1/object/public/avatars/\(alice.user.id)/me.png?download=%22a%0D%0Ab%C3%A9%22.png",
            apiKey: .some(nil))
        #expect(named.status == 200 && named.header("Content-Type") == "image/png")
        #expect(named.header("Content-Disposition") == #"attachment; filename="_a__b__.png"; filename*=UTF-8''%22a%0D%0Ab%C3%A9%22.png"#)
        let plain = try await server.request("GET", "/storage/v1/object/public/avatars/\(alice.user.id)/me.png?download=", apiKey: .some(nil))
        #expect(plain.header("Content-Disposition") == #"attachment; filename="me.png"; filename*=UTF-8''me.png"#)
    }
}
