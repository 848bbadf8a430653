// afecho_server: the echo server of source experiment 002
// (shared/seeds/002), written anew for matrices/seeds/002_af_echo.yaml.
//
// As the source's, it listens on a unix socket and on TCP at once and
// frames by line: each connection, in a goroutine of its own, reads a
// line, writes it back and flushes, until its client closes.  The cell's
// transport is -n at -a (the address matrix gave it); the other network
// listens too, on an address of its own that nothing else uses (TCP on
// 127.0.0.1 with a port the kernel picks, or an abstract unix socket), so
// that the server is the source's whichever one is measured.  It prints
// what the source's server printed: its listeners, and per connection an
// accept line and a close line with the lines it echoed, the time and
// their rate:
//
//	--> tcp :  <nil> 127.0.0.1:12345
//	--> ipc :  <nil> /tmp/afecho.ipc
//	--accept--> /tmp/afecho.ipc
//	<--close-- /tmp/afecho.ipc  500000 1.449517214s 344942.43681330985
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"time"
)

func echo(c net.Conn, where string) {
	defer c.Close()
	fmt.Println("--accept-->", where)
	r := bufio.NewReaderSize(c, 64*1024)
	w := bufio.NewWriterSize(c, 64*1024)
	lines := 0
	start := time.Now()
	for {
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull { // a line longer than the buffer: its part so far
			err = nil
		} else if err == nil {
			lines++
		}
		if len(line) > 0 {
			_, werr := w.Write(line)
			if werr == nil {
				werr = w.Flush()
			}
			if werr != nil {
				fmt.Fprintln(os.Stderr, "write:", werr)
				break
			}
		}
		if err != nil {
			if err != io.EOF {
				fmt.Fprintln(os.Stderr, "read:", err)
			}
			break
		}
	}
	d := time.Since(start)
	fmt.Println("<--close--", where, "", lines, d, float64(lines)/d.Seconds())
}

func serve(ln net.Listener, network string) {
	for {
		c, err := ln.Accept()
		if err != nil {
			fmt.Fprintln(os.Stderr, "accept:", err)
			os.Exit(1)
		}
		where := ln.Addr().String()
		if network == "tcp" {
			where += " " + c.RemoteAddr().String()
		}
		go echo(c, where)
	}
}

func listen(network, addr string) net.Listener {
	if network == "unix" && addr[0] != '@' {
		os.Remove(addr)
	}
	ln, err := net.Listen(network, addr)
	name := network
	if network == "unix" {
		name = "ipc"
	}
	shown := addr
	if err == nil {
		shown = ln.Addr().String()
	}
	fmt.Println("-->", name, ": ", err, shown)
	if err != nil {
		os.Exit(1)
	}
	return ln
}

func main() {
	network := flag.String("n", "unix", "the measured network: unix or tcp")
	addr := flag.String("a", "/tmp/afecho.ipc", "its address: a socket path, or host:port")
	flag.Parse()

	other, otherAddr := "tcp", "127.0.0.1:0"
	if *network == "tcp" {
		other, otherAddr = "unix", fmt.Sprintf("@afecho-%d.ipc", os.Getpid())
	} else if *network != "unix" {
		fmt.Fprintln(os.Stderr, "-n: unix or tcp, not", *network)
		os.Exit(2)
	}
	measured := listen(*network, *addr)
	go serve(listen(other, otherAddr), other)
	serve(measured, *network)
}
