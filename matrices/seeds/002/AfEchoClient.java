// AfEchoClient: the Java echo client of source experiment 002
// (shared/seeds/002), written anew for matrices/seeds/002_af_echo.yaml,
// with JDK 17's own unix-domain socket channels (JEP 380) where the source
// went through a native library.
//
//   java AfEchoClient unix PATH COUNT [MESSAGE]
//   java AfEchoClient tcp HOST:PORT COUNT [MESSAGE]
//
// One blocking SocketChannel (TCP_NODELAY on TCP, as Go sets it); COUNT
// times: write MESSAGE (default HelloWorld), read as many bytes back.  The
// loop is timed (connect excluded) and the source's line printed:
//
//   done : net=unix , msg.size=10 , total=500000 , time=1543ms , avg=324044.069994/s
import java.io.EOFException;
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

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: AfEchoClient unix|tcp ADDRESS COUNT [MESSAGE]");
            System.exit(2);
        }
        String net = args[0];
        long count = Long.parseLong(args[2]);
        byte[] msg = (args.length > 3 ? args[3] : "HelloWorld").getBytes(StandardCharsets.UTF_8);
        ByteBuffer out = ByteBuffer.allocateDirect(msg.length);
        ByteBuffer in = ByteBuffer.allocateDirect(msg.length);
        out.put(msg);

        try (SocketChannel ch = open(net, args[1])) {
            long start = System.nanoTime();
            for (long i = 0; i < count; i++) {
                out.rewind();
                while (out.hasRemaining())
                    ch.write(out);
                in.clear();
                while (in.hasRemaining())
                    if (ch.read(in) < 0)
                        throw new EOFException("server closed after " + i + " messages");
            }
            long ns = System.nanoTime() - start;
            System.out.printf(Locale.ROOT, "done : net=%s , msg.size=%d , total=%d , time=%dms , avg=%f/s%n",
                    net, msg.length, count, ns / 1000000, count / (ns / 1e9));
        }
    }
}
