// The Go echo server of `make bench` (bench/run.sh): the source 002 cell's
// server, written for the bench.  Listens on a unix socket (-n unix -a
// PATH) or on TCP (-n tcp -a 127.0.0.1:PORT; loopback only), prints
// "ready" once it listens, and echoes every byte back, each connection in
// a goroutine of its own, until killed.
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"os"
)

func echo(c net.Conn) {
	defer c.Close()
	buf := make([]byte, 64*1024)
	for {
		n, err := c.Read(buf)
		if n > 0 {
			if _, werr := c.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				fmt.Fprintln(os.Stderr, "echo_server: read:", err)
			}
			return
		}
	}
}

func main() {
	network := flag.String("n", "unix", "unix or tcp")
	addr := flag.String("a", "", "unix: a socket path; tcp: 127.0.0.1:PORT")
	flag.Parse()
	ln, err := net.Listen(*network, *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "echo_server:", err)
		os.Exit(1)
	}
	fmt.Println("ready")
	for {
		c, err := ln.Accept()
		if err != nil {
			fmt.Fprintln(os.Stderr, "echo_server: accept:", err)
			os.Exit(1)
		}
		go echo(c)
	}
}
