import NIOCore

/// One SMTP reply: its code and its lines' text (RFC 5321 §4.2). A multi-line reply's lines
/// are `250-…` until the last, `250 …`.
struct SMTPReply: Sendable, Hashable {
    let code: Int
    let lines: [String]

    var message: String { lines.joined(separator: " ") }
    var isPositive: Bool { (200..<400).contains(code) }
}

/// Turns the server's bytes into ``SMTPReply``s. Bounded against a server that never ends a
/// line or a reply: a line past ``maximumLineLength`` or a reply past ``maximumLines`` is
/// ``EmailError/malformedReply(_:)``.
struct SMTPReplyDecoder: ByteToMessageDecoder {
    typealias InboundOut = SMTPReply

    static let maximumLineLength = 4096
    static let maximumLines = 200
    private var lines: [String] = []

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > Self.maximumLineLength { throw EmailError.malformedReply("a line longer than \(Self.maximumLineLength) bytes") }
            return .needMoreData
        }
        let length = newline - view.startIndex
        guard length <= Self.maximumLineLength, var line = buffer.readString(length: length) else {
            throw EmailError.malformedReply("a line longer than \(Self.maximumLineLength) bytes")
        }
        buffer.moveReaderIndex(forwardBy: 1)
        if line.hasSuffix("\r") { line.removeLast() }
        let bytes = Array(line.utf8)
        guard bytes.count >= 3, let code = Int(String(decoding: bytes[0..<3], as: UTF8.self)), (200..<600).contains(code),
            bytes.count == 3 || bytes[3] == UInt8(ascii: " ") || bytes[3] == UInt8(ascii: "-")
        else { throw EmailError.malformedReply(String(line.prefix(80))) }
        lines.append(bytes.count > 4 ? String(decoding: bytes[4...], as: UTF8.self) : "")
        guard lines.count <= Self.maximumLines else { throw EmailError.malformedReply("a reply of more than \(Self.maximumLines) lines") }
        if bytes.count > 3, bytes[3] == UInt8(ascii: "-") { return .continue }
        context.fireChannelRead(wrapInboundOut(SMTPReply(code: code, lines: lines)))
        lines = []
        return .continue
    }
}
