import Foundation
import Testing

@testable import QREncoder

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The renderers draw exactly the symbol's modules, with the quiet zone asked for.
@Suite("QR code renderers")
struct RendererTests {
    /// A contact link, as the apps draw one (version 3-Q).
    static func link() throws -> QRCode {
        try QRCode(text: "https://lifesignal.example/l/AbCdEf012345", errorCorrection: .quartile)
    }

    @Test("the SVG is well-formed XML: one path, a white background, the title escaped, no inline style")
    func svgStructure() throws {
        let code = try Self.link()
        let title = #"Scan <me> & "check in" 'now'"#
        let svg = code.svg(moduleSize: 5, quietZone: 3, title: title)
        let extent = code.size + 6
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" "))
        #expect(svg.hasSuffix("</svg>"))
        #expect(svg.contains("<title>Scan &lt;me&gt; &amp; &quot;check in&quot; &apos;now&apos;</title>"))
        #expect(!svg.contains("style"))
        #expect(svg.components(separatedBy: "<path ").count == 2)
        #expect(svg.contains(#"viewBox="0 0 \#(extent) \#(extent)" width="\#(extent * 5)" height="\#(extent * 5)" role="img""#))
        #expect(svg.contains(#"shape-rendering="crispEdges""#))
        #expect(svg.contains(##"fill="#fff""##) && svg.contains(##"fill="#000""##))
        #expect(!code.svg().contains("<title>"))

        #if canImport(FoundationXML) || canImport(Darwin)
            let document = try XMLDocument(xmlString: svg, options: [])
            let root = try #require(document.rootElement())
            #expect(root.name == "svg")
            #expect(root.uri == "http://www.w3.org/2000/svg")
            #expect(Self.attribute("role", of: root) == "img")
            #expect(Self.attribute("viewBox", of: root) == "0 0 \(extent) \(extent)")
            let children = (root.children ?? []).compactMap { $0 as? XMLElement }
            #expect(children.map(\.name) == ["title", "rect", "path"])
            #expect(children.first?.stringValue == title)
            #expect(children.allSatisfy { Self.attribute("style", of: $0) == nil })
            #expect(children.dropFirst().map { Self.attribute("fill", of: $0) } == ["#fff", "#000"])
            let path = try #require(children.last)
            let data = try #require(Self.attribute("d", of: path))
            #expect(data == code.pathData(offset: 3))
        #endif
    }

    #if canImport(FoundationXML) || canImport(Darwin)
        /// An attribute's value by name. Not `attribute(forName:)`: in swift-corelibs-foundation
        /// it finds nothing on an element in a default namespace, such as SVG's.
        static func attribute(_ name: String, of element: XMLElement) -> String? {
            element.attributes?.first { $0.name == name }?.stringValue
        }
    #endif

    @Test("a title with characters XML cannot hold still makes a well-formed document")
    func svgControlCharacters() throws {
        let svg = try Self.link().svg(title: "bell\u{7} tab\t nul\u{0} end")
        #expect(svg.contains("<title>bell\u{FFFD} tab\t nul\u{FFFD} end</title>"))
        #if canImport(FoundationXML) || canImport(Darwin)
            _ = try XMLDocument(xmlString: svg, options: [])
        #endif
    }

    @Test("the SVG path covers exactly the dark modules, one rectangle per horizontal run")
    func svgPath() throws {
        for code in [try Self.link(), try QRCode(bytes: Array(repeating: 0xFF, count: 300), errorCorrection: .low)] {
            let quietZone = 4
            let extent = code.size + 2 * quietZone
            var painted = [Bool](repeating: false, count: extent * extent)
            let data = code.pathData(offset: quietZone)
            var rectangles = 0
            for command in data.split(separator: "z") {
                // M<x> <y>h<n>v1h-<n>
                let parts = command.dropFirst().split(separator: "h")
                try #require(command.first == "M" && parts.count == 3 && parts[1].hasSuffix("v1"), "\(command)")
                let origin = parts[0].split(separator: " ").compactMap { Int($0) }
                let length = try #require(Int(parts[1].dropLast(2)))
                try #require(origin.count == 2 && parts[2] == "-\(length)" && length > 0, "\(command)")
                for x in origin[0]..<origin[0] + length {
                    #expect(!painted[origin[1] * extent + x], "painted twice at (\(x), \(origin[1]))")
                    painted[origin[1] * extent + x] = true
                }
                // A run is maximal: the modules either side are light.
                #expect(!code[origin[0] - quietZone - 1, origin[1] - quietZone] && !code[origin[0] + length - quietZone, origin[1] - quietZone])
                rectangles += 1
            }
            for y in 0..<extent {
                for x in 0..<extent {
                    #expect(painted[y * extent + x] == code[x - quietZone, y - quietZone], "(\(x), \(y))")
                }
            }
            #expect(rectangles > 0 && rectangles < code.modules.count { $0 })
        }
    }

    @Test("terminal text: (size + 2 × quiet zone + 1) / 2 lines of equal width whose half blocks are the modules", arguments: [0, 1, 2, 4])
    func terminalText(quietZone: Int) throws {
        let code = try Self.link()
        let extent = code.size + 2 * quietZone
        for inverted in [false, true] {
            let lines = code.terminalText(quietZone: quietZone, inverted: inverted).split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == (extent + 1) / 2)
            #expect(lines.allSatisfy { $0.count == extent && $0.unicodeScalars.count == extent })
            for (row, line) in lines.enumerated() {
                for (column, character) in line.enumerated() {
                    let halves: (Bool, Bool)? =
                        switch character {
                        case "█": (true, true)
                        case "▀": (true, false)
                        case "▄": (false, true)
                        case " ": (false, false)
                        default: nil
                        }
                    guard let (upper, lower) = halves else {
                        Issue.record("unexpected character \(character) at line \(row)")
                        continue
                    }
                    let x = column - quietZone
                    let top = 2 * row - quietZone
                    // Ink is a dark module, or a light one when inverted; below the last row is light.
                    #expect(upper == (code[x, top] != inverted), "line \(row), column \(column), inverted \(inverted)")
                    #expect(lower == (code[x, top + 1] != inverted), "line \(row), column \(column), inverted \(inverted)")
                }
            }
        }
        #expect(code.terminalText(quietZone: -3) == code.terminalText(quietZone: 0))
    }

    @Test("grayscale pixels and PGM: 0 for dark, 255 for light, module by module, quiet zone light")
    func pixels() throws {
        let code = try Self.link()
        for (moduleSize, quietZone) in [(1, 0), (3, 4), (4, 2)] {
            let image = code.grayscalePixels(moduleSize: moduleSize, quietZone: quietZone)
            let side = (code.size + 2 * quietZone) * moduleSize
            #expect(image.width == side && image.height == side && image.pixels.count == side * side)
            for y in 0..<side {
                for x in 0..<side {
                    let dark = code[x / moduleSize - quietZone, y / moduleSize - quietZone]
                    #expect(image.pixels[y * side + x] == (dark ? 0 : 255), "(\(x), \(y)) at \(moduleSize) px per module")
                }
            }
            let pgm = code.pgm(moduleSize: moduleSize, quietZone: quietZone)
            let header = Array("P5\n\(side) \(side)\n255\n".utf8)
            #expect(Array(pgm.prefix(header.count)) == header)
            #expect(Array(pgm.dropFirst(header.count)) == image.pixels)
        }
        // Sizes below the least are raised to it.
        #expect(code.grayscalePixels(moduleSize: 0, quietZone: -1).width == code.size)
    }
}
