import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

/// What a ``MessagingClient`` needs from a backend, filled by each adapter its own way
/// (in-process calls, Supabase Functions, Firebase callables); the client's behaviour — one
/// token per device, a cursor through its inbox — is built once, here.
package struct MessagingRoute: Sendable {
    /// Messages asked for per inbox read.
    package static let pageSize = 100

    /// The signed-in person, or ``DomainError/unauthenticated``.
    package var me: @Sendable () async throws -> UserID
    /// `register-push-token` for the signed-in person.
    package var register: @Sendable (_ token: String) async throws -> Void
    package var unregister: @Sendable (_ token: String) async throws -> Void
    package var subscribe: @Sendable (_ token: String, _ topic: String) async throws -> Void
    package var unsubscribe: @Sendable (_ token: String, _ topic: String) async throws -> Void
    /// `get-device-messages`: up to ``pageSize`` messages after a cursor.
    package var inbox: @Sendable (_ token: String, _ after: Int) async throws -> DeviceMessagePage
    /// Fires when the device's inbox may have news: the change feed in-process, a timer over
    /// a wire. Made when a message stream starts, so news from then on is not missed.
    package var news: @Sendable (MessagingDevice) -> AsyncStream<Void>

    package init(
        me: @escaping @Sendable () async throws -> UserID,
        register: @escaping @Sendable (_ token: String) async throws -> Void,
        unregister: @escaping @Sendable (_ token: String) async throws -> Void,
        subscribe: @escaping @Sendable (_ token: String, _ topic: String) async throws -> Void,
        unsubscribe: @escaping @Sendable (_ token: String, _ topic: String) async throws -> Void,
        inbox: @escaping @Sendable (_ token: String, _ after: Int) async throws -> DeviceMessagePage,
        news: @escaping @Sendable (MessagingDevice) -> AsyncStream<Void>
    ) {
        self.me = me
        self.register = register
        self.unregister = unregister
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
        self.inbox = inbox
        self.news = news
    }

    /// News every `interval`, for backends that cannot tell.
    package static func polling(every interval: Duration) -> @Sendable (MessagingDevice) -> AsyncStream<Void> {
        { _ in
            AsyncStream { continuation in
                let task = Task {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: interval)
                        continuation.yield()
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
    }

    /// The client of `device` over this route.
    package func client(device: MessagingDevice) -> MessagingClient {
        let route = self
        @Sendable func token() async throws -> String {
            try await device.serially {
                let me = try await route.me()
                let known = device.withState { ($0.token, $0.owner) }
                if let token = known.0, known.1 == me { return token }
                // Someone else signed in on this device: the same token is registered for them.
                let token = known.0 ?? MessagingRules.makeDeviceToken()
                try await route.register(token)
                device.replaceToken(with: token, owner: me)
                return token
            }
        }
        return MessagingClient(
            token: { try await token() },
            deleteToken: {
                try await device.serially {
                    guard let token = device.currentToken else { return }
                    do {
                        try await route.unregister(token)
                    } catch DomainError.notFound(let subject) where subject == "Push token" {
                        // Already gone (unregistered elsewhere, or taken over): forget it here too.
                    }
                    device.replaceToken(with: nil, owner: nil)
                }
            },
            subscribe: { topic in try await route.subscribe(try await token(), topic) },
            unsubscribe: { topic in try await route.unsubscribe(try await token(), topic) },
            tokenStream: {
                let (tokens, hasToken) = device.tokens()
                // Like FCM's automatic initialisation: following the token asks for one.
                if !hasToken { Task { _ = try? await token() } }
                return tokens
            },
            messageStream: { route.messages(of: device) })
    }

    /// The inbox of the device's current token, read after `device`'s cursor at the time of
    /// the call and again on each piece of news or token change. A failed read is retried on
    /// the next news (a dropped connection must not end the stream); the cursor only moves
    /// past messages handed out, so nothing is lost or repeated.
    private func messages(of device: MessagingDevice) -> AsyncStream<RemoteMessage> {
        let route = self
        let start = device.withState { ($0.token, $0.cursor) }
        let wakes = device.wakes()
        let news = news(device)
        return AsyncStream { continuation in
            let task = Task {
                let (signals, signal) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
                let forwarders = [
                    Task { for await _ in wakes { signal.yield() } },
                    Task { for await _ in news { signal.yield() } },
                ]
                defer { for forwarder in forwarders { forwarder.cancel() } }
                signal.yield()
                var (token, cursor) = start
                for await _ in signals {
                    let now = device.withState { ($0.token, $0.cursor) }
                    if now.0 != token { (token, cursor) = now }
                    guard let current = token else { continue }
                    do {
                        while !Task.isCancelled {
                            // Safe to cancel mid-read: the URLSession transports never cancel
                            // the exchange itself (see HTTPTransportCore).
                            let page = try await route.inbox(current, cursor)
                            for message in page.messages { continuation.yield(message) }
                            cursor = max(cursor, page.cursor)
                            device.advance(current, to: cursor)
                            if page.messages.count < Self.pageSize { break }
                        }
                    } catch {
                        continue
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
