// AfEchoClient: the Java echo client of source experiment 002
// (shared/seeds/002), written anew for matrices/seeds/002_af_echo.yaml,
// with JDK 17's own unix-domain socket channels (JEP 380) where the source
// went through a native library.
//
//   java AfEchoClient unix PATH COUNT [MESSAGE]
//   java AfEchoClient tcp HOST:PORT COUNT [MESSAGE]
//
// Pipelined, as the source's echo-tester: one blocking SocketChannel
// (TCP_NODELAY on TCP, as Go sets it); a reader thread counts the echoed
// lines while the main thread writes MESSAGE (default HelloWorld) and
// "\r\n", 12 bytes as the source's msg.size=12, COUNT times, one write
// each, never waiting for an echo.  The time runs from the first write to
// the last echo read (connect excluded); the source's lines are printed,
// its start time in milliseconds first:
//
//   1607138984673
//   done : net=unix , msg.size=12 , total=500000 , time=1543ms , avg=324044.069994/s
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

public class AfEchoClient {
    static SocketChannel open(String net, String addr) throws Exception {
        if (net.equals("unix")) {
            SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
            ch.connect(UnixDomainSocketAddress.of(addr));
            return ch;
        }
        if (!net.equals("tcp"))
            throw new IllegalArgumentException("net: unix or tcp, not " + net);
        int colon = addr.lastIndexOf(':');
        String host = addr.substring(0, colon).replace("[", "").replace("]", "");
        int port = Integer.parseInt(addr.substring(colon + 1));
        SocketChannel ch = SocketChannel.open(new InetSocketAddress(host, port));
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        return ch;
    }

    /* Counts echoed lines until count have come; the count, or -1 (its
     * reason on stderr) when the server closed first or a line differs. */
    static long readLines(SocketChannel ch, long count, byte[] line) throws Exception {
        ByteBuffer in = ByteBuffer.allocateDirect(64 * 1024);
        long lines = 0;
        int at = 0; // bytes of the current line seen so far
        while (lines < count) {
            in.clear();
            if (ch.read(in) < 0) {
                System.err.println("server closed after " + lines + " lines");
                return -1;
            }
            in.flip();
            while (in.hasRemaining()) {
                byte b = in.get();
                if (at >= line.length || b != line[at]) {
                    System.err.println("line " + (lines + 1) + " differs from the message");
                    return -1;
                }
                if (++at == line.length) {
                    at = 0;
                    lines++;
                }
            }
        }
        return lines;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: AfEchoClient unix|tcp ADDRESS COUNT [MESSAGE]");
            System.exit(2);
        }
        String net = args[0];
        long count = Long.parseLong(args[2]);
        byte[] line = ((args.length > 3 ? args[3] : "HelloWorld") + "\r\n").getBytes(StandardCharsets.UTF_8);
        ByteBuffer out = ByteBuffer.allocateDirect(line.length);
        out.put(line);

        try (SocketChannel ch = open(net, args[1])) {
            long[] got = { -1 };
            Thread reader = new Thread(() -> {
                try {
                    got[0] = readLines(ch, count, line);
                } catch (Exception e) {
                    System.err.println("read: " + e);
                }
            });
            System.out.println(System.currentTimeMillis());
            long start = System.nanoTime();
            reader.start();
            for (long i = 0; i < count; i++) {
                out.rewind();
                while (out.hasRemaining())
                    ch.write(out);
            }
            reader.join();
            long ns = System.nanoTime() - start;
            if (got[0] != count)
                System.exit(1);
            System.out.printf(Locale.ROOT, "done : net=%s , msg.size=%d , total=%d , time=%dms , avg=%f/s%n",
                    net, line.length, count, ns / 1000000, count / (ns / 1e9));
        }
    }
}
