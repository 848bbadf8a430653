// rtt_server: the request/response server of source experiment 000
// (shared/seeds/000), written anew for matrices/seeds/000_go_rtt.yaml.
//
// Every connection, in a goroutine of its own: read exactly -r bytes, write
// -s bytes back, until the client closes.  Same flags as the source's
// server, plus -h: it listens on 127.0.0.1 (the source took every address).
package main

import (
	"flag"
	"io"
	"log"
	"net"
	"strconv"
)

func serve(c net.Conn, reqSize, respSize int) {
	defer c.Close()
	req := make([]byte, reqSize)
	resp := make([]byte, respSize)
	for {
		if _, err := io.ReadFull(c, req); err != nil {
			if err != io.EOF {
				log.Println("read:", err)
			}
			return
		}
		if _, err := c.Write(resp); err != nil {
			log.Println("write:", err)
			return
		}
	}
}

func main() {
	host := flag.String("h", "127.0.0.1", "address to listen on")
	port := flag.Int("p", 9876, "port")
	reqSize := flag.Int("r", 4096, "request size, bytes")
	respSize := flag.Int("s", 4096, "response size, bytes")
	flag.Parse()
	log.SetFlags(log.LstdFlags | log.Lshortfile)

	log.Printf("port %d, request size %d, response size %d", *port, *reqSize, *respSize)
	ln, err := net.Listen("tcp", net.JoinHostPort(*host, strconv.Itoa(*port)))
	if err != nil {
		log.Fatal("listen: ", err)
	}
	for {
		c, err := ln.Accept()
		if err != nil {
			log.Fatal("accept: ", err)
		}
		go serve(c, *reqSize, *respSize)
	}
}
