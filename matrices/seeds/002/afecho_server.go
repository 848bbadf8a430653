// afecho_server: the echo server of source experiment 002
// (shared/seeds/002), written anew for matrices/seeds/002_af_echo.yaml.
//
// Listens on a unix socket (-n unix -a PATH) or TCP (-n tcp -a HOST:PORT)
// and echoes every byte back, each connection in a goroutine of its own;
// it frames nothing, so any client that writes a message and reads as many
// bytes back works with it (the Go and Java clients, matrix's builtin
// one).  Prints what the source's server printed: its listener, and per
// connection an accept line and a close line with the reads it served,
// the time and their rate.
package main

import (
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
	buf := make([]byte, 64*1024)
	reads := 0
	start := time.Now()
	for {
		n, err := c.Read(buf)
		if n > 0 {
			reads++
			if _, werr := c.Write(buf[:n]); werr != nil {
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
	fmt.Println("<--close--", where, reads, d, float64(reads)/d.Seconds())
}

func main() {
	network := flag.String("n", "unix", "network: unix or tcp")
	addr := flag.String("a", "/tmp/afecho.ipc", "unix: a socket path; tcp: host:port")
	flag.Parse()

	if *network == "unix" {
		os.Remove(*addr)
	}
	ln, err := net.Listen(*network, *addr)
	fmt.Println("-->", *network, ": ", err, *addr)
	if err != nil {
		os.Exit(1)
	}
	for {
		c, err := ln.Accept()
		if err != nil {
			fmt.Fprintln(os.Stderr, "accept:", err)
			os.Exit(1)
		}
		where := *addr
		if *network == "tcp" {
			where = *addr + " " + c.RemoteAddr().String()
		}
		go echo(c, where)
	}
}
