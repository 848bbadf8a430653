module matrixbench/echo

go 1.19
