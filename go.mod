module github.com/arena-playground/arena

go 1.26
